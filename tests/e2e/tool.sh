#!/usr/bin/env bash
# The tool API (uprof_tool.h, lib/tool; issue 15): the example tools built out of tree
# against the installed header only, run on real sessions, their sections checked against
# the base report's own figures; a tool that asks collect for call stacks gets them without
# -g; a tool built against API 1.0's header still loads; refused tools (newer major, no
# entry point, bad descriptor) and failing tools (crash, hang, error, exit) leave
# report.csv and the session intact, exit non-zero and name the tool; knob errors exit 2.
source "$(dirname "$0")/lib/common.sh"

# --- 1. install, then build the examples with nothing of the tree but the installed header
PREFIX=$SCRATCH/prefix
if make -s install PREFIX="$PREFIX" BUILD="$BUILD" >"$SCRATCH/install.log" 2>&1; then
	ok "make install PREFIX=<temp dir>"
else
	not_ok "make install failed: $(tail -5 "$SCRATCH/install.log")"
fi
check "the tool header is installed" test -f "$PREFIX/include/uprof_tool.h"
check "the tool man page is installed" test -f "$PREFIX/share/man/man3/uprof-tool.3"
mkdir -p "$SCRATCH/src" && cp examples/tools/*.c "$SCRATCH/src/"
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
check "pkg-config knows uprof-tool and AMDProfileController from the install" \
	bash -c "pkg-config --exists uprof-tool AMDProfileController && [ \"\$(echo \$(pkg-config --cflags uprof-tool))\" = '-I$PREFIX/include -fPIC' ]"
built=0
for t in hotlines timeline hotstacks percpu; do
	# shellcheck disable=SC2046 # pkg-config's flags are words
	(cd "$SCRATCH/src" && cc -shared -Wall -Werror $(pkg-config --cflags uprof-tool) -o "$t.so" "$t.c") \
		2>"$SCRATCH/cc.err" && built=$((built + 1))
done
printf '#include <AMDProfileController.h>\nint main(void) { amdProfileResume(); amdProfilePause(); return 0; }\n' >"$SCRATCH/src/ctl.c"
# shellcheck disable=SC2046
check "a program builds and runs against AMDProfileController through pkg-config alone" \
	bash -c "cc -o '$SCRATCH/src/ctl' '$SCRATCH/src/ctl.c' $(pkg-config --cflags --libs AMDProfileController) && '$SCRATCH/src/ctl'"
check "the four example tools build out of tree against the installed header ($built/4)" \
	test "$built" = 4
HOT=$SCRATCH/src/hotlines.so TL=$SCRATCH/src/timeline.so HS=$SCRATCH/src/hotstacks.so

# --- 2. info --tool: name, API version, knobs with types, defaults, help
"$UPROF" info --tool "$HOT" >"$SCRATCH/info" 2>&1
check "info --tool names the tool and its API version" \
	grep -qE "^Tool API: +1\.[0-9]+ \(this uprof: 1\.[0-9]+\)" "$SCRATCH/info"
check "info --tool lists knob top: int, default 10, its help" \
	grep -qE "^  top +int +10 +lines per section \(0 = all\)$" "$SCRATCH/info"
check "info --tool lists knob per-task: bool, default false" \
	grep -qE "^  per-task +bool +false +a section per task too$" "$SCRATCH/info"
"$UPROF" info --tool "$TL" >"$SCRATCH/info" 2>&1
check "info --tool lists a double knob with its default" \
	grep -qE "^  interval +double +1 +seconds per row$" "$SCRATCH/info"
"$UPROF" info --tool "$HS" >"$SCRATCH/info" 2>&1
check "info --tool says what a tool asks collect for" \
	grep -qE "^Collect: +call stacks \(fp\)$" "$SCRATCH/info"
check "info --tool lists a string knob with its default" \
	grep -qE "^  unwind +string +fp +how collect gets stacks" "$SCRATCH/info"

# --- 3. knob errors: one line, exit 2, naming the tool and the knob
expect_fail 2 "an unknown knob" "tool 'hotlines' \(.*hotlines.so\): unknown knob 'tpo' \(its knobs: top, per-task\)" \
	"$UPROF" info --tool "$HOT,tpo=3"
expect_fail 2 "a bad int" "tool 'hotlines' .*: knob 'top' wants an integer \(decimal or 0x hex\), not 'ten'" \
	"$UPROF" info --tool "$HOT,top=ten"
expect_fail 2 "a bad bool" "knob 'per-task' wants a bool" "$UPROF" info --tool "$HOT,per-task=maybe"
expect_fail 2 "a value the tool refuses (knobs_checked)" "tool 'timeline' .*refuses these knob values" \
	"$UPROF" info --tool "$TL,interval=0"

# --- 4. hotlines on a session with tasks: totals are the base report's
"$UPROF" collect -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
cp "$S/report.csv" "$SCRATCH/base.csv"
expect_fail 2 "report: a bad knob is said before the report (exit 2)" "unknown knob 'bogus'" \
	"$UPROF" report -i "$S" --tool "$HOT,bogus=1"
"$UPROF" report -i "$S" --cutoff 0 --tool "$HOT,top=0,per-task=1" >/dev/null 2>"$SCRATCH/err"
check "report --tool hotlines exits 0" test $? = 0
R=$S/report.csv
samples=$(csvq "$R" --key Samples)
lines_sum=$(csvq "$R" "HOTTEST SOURCE LINES (Tool - hotlines)" | awk -F'\t' '{s += $4} END {print s + 0}')
check "hotlines: every sample on a line ($lines_sum = Samples $samples)" test "$lines_sum" = "$samples"
top_line=$(csvq "$R" "HOTTEST SOURCE LINES (Tool - hotlines)" | head -1)
check "hotlines: the hottest line is in spin() of tasks.c ($top_line)" \
	bash -c "[[ '$top_line' == *tests/targets/tasks.c*spin* ]]"
check "the base report is unchanged before the tool's sections" \
	bash -c "diff <(grep -v '^Report Command' '$SCRATCH/base.csv') <(head -n $(wc -l <"$SCRATCH/base.csv") '$R' | grep -v '^Report Command')"
bad=0 ntasks=0
while IFS=$'\t' read -r dom task count elapsed cpu; do
	ntasks=$((ntasks + 1))
	sum=$(csvq "$R" "HOTTEST SOURCE LINES OF TASK $dom:$task (Tool - hotlines)" |
		awk -F'\t' '{s += $5} END {printf "%.4f", s}')
	near "$sum" "$cpu" 0.00051 || { bad=$((bad + 1)); echo "# $dom:$task: tool $sum, report $cpu"; }
done < <(csvq "$R" "ALL TASKS (Sort Event - CPU_TIME)")
check "hotlines per task: each task's lines sum to its CPU_TIME in report.csv ($ntasks tasks, $bad off)" \
	test "$ntasks" -ge 8 -a "$bad" = 0

# ... the tool sees what the report keeps: --time-filter's samples only; --stdout gets it too
"$UPROF" report -i "$S" --time-filter 0.2: --stdout --tool "$HOT,top=0" >"$SCRATCH/stdout.csv" 2>/dev/null
lines_sum=$(csvq "$SCRATCH/stdout.csv" "HOTTEST SOURCE LINES (Tool - hotlines)" | awk -F'\t' '{s += $4} END {print s + 0}')
kept=$(csvq "$SCRATCH/stdout.csv" --key Samples)
check "--time-filter: the tool's lines sum to the filtered Samples ($lines_sum = $kept, of $samples)" \
	test "$lines_sum" = "$kept" -a "$kept" -lt "$samples"

# --- 5. timeline: each thread's column sums to its CPU_TIME; its own file, 0600
"$UPROF" report -i "$S" --cutoff 0 --tool "$TL,interval=0.1,file=1" >/dev/null 2>&1
check "report --tool timeline exits 0" test $? = 0
"$PYTHON" - "$R" "$S/tools/timeline/timeline.csv" >"$SCRATCH/tl" 2>&1 <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
def section(title):
    i = next(k for k, r in enumerate(rows) if r and title in r[0])
    out = []
    for r in rows[i + 1:]:
        if not r:
            break
        out.append(r)
    return out
threads = {r[0]: float(r[2]) for r in section("ALL THREADS (Sort Event")[1:]}
tl = section("CPU_TIME PER THREAD EVERY 0.1 SECONDS (Tool - timeline)")
head, body = tl[0], tl[1:]
bad = 0
for c, name in enumerate(head[1:], 1):
    s = sum(float(r[c]) for r in body)
    if abs(s - threads.get(name, -1)) > 0.0005 * len(body):
        bad += 1
        print("# %s: timeline %.4f, report %s" % (name, s, threads.get(name)))
times = [float(r[0]) for r in body]
steps = all(abs(b - a - 0.1) < 1e-6 for a, b in zip(times, times[1:]))
own = list(csv.reader(open(sys.argv[2])))
same = own[0] == head and [r for r in own[1:]] == body
print("threads=%d bad=%d steps=%s same=%s" % (len(head) - 1, bad, steps, same))
EOF
check "timeline: every thread's column sums to its CPU_TIME ($(tail -1 "$SCRATCH/tl"))" \
	grep -q "^threads=[4-9] bad=0 steps=True same=True$" "$SCRATCH/tl"
check "timeline's own file is 0600 in a 0700 directory" \
	test "$(stat -c %a "$S/tools/timeline/timeline.csv") $(stat -c %a "$S/tools/timeline") $(stat -c %a "$S/tools")" = "600 700 700"

# --- 6. a tool that asks for call stacks gets them without -g
"$UPROF" collect -o "$SCRATCH/plain" "$TGT/demo" >/dev/null 2>&1
P=$(session_in "$SCRATCH/plain")
check "without the tool, no call stacks" grep -qx "mode = none" "$P/session.ini"
"$UPROF" collect --tool "$HS" -o "$SCRATCH/cg" "$TGT/demo" >/dev/null 2>&1
C=$(session_in "$SCRATCH/cg")
check "collect --tool hotstacks (no -g): call stacks by frame pointers" grep -qx "mode = fp" "$C/session.ini"
check "session.ini records which tool asked for what" \
	bash -c "grep -A4 -x '\[tool.0\]' '$C/session.ini' | tr '\n' ' ' | grep -q 'path = $HS name = hotstacks stacks = fp'"
"$UPROF" report -i "$C" --cutoff 0 --tool "$HS,top=0,depth=3" >/dev/null 2>"$SCRATCH/err"
check "the report says it has call stacks" grep -q "^Call stacks: " "$SCRATCH/err"
R=$C/report.csv
read -r deep total < <(csvq "$R" "HOTTEST CALL STACKS (Tool - hotstacks)" |
	awk -F'\t' '{t += $3; if ($2 > 1) d += $3} END {print d + 0, t + 0}')
check "hotstacks: stacks sum to the samples ($total = $(csvq "$R" --key Samples))" \
	test "$total" = "$(csvq "$R" --key Samples)"
check "hotstacks: most samples have callers ($deep of $total)" test $((deep * 2)) -gt "$total"
heavy=$(csvq "$R" "ALL FUNCTIONS (Sort Event" | awk -F'\t' '$1 == "heavy_work" {printf "%.0f", $2 * 1000}')
hs_heavy=$(csvq "$R" "HOTTEST CALL STACKS (Tool - hotstacks)" | awk -F'\t' '$1 ~ /^heavy_work( |$)/ {s += $3} END {print s + 0}')
check "hotstacks: stacks with heavy_work as leaf = its samples in report.csv ($hs_heavy = $heavy)" \
	test "$hs_heavy" = "$heavy"
"$UPROF" collect -g --tool "$HS,unwind=dwarf" -o "$SCRATCH/user" "$TGT/demo" >/dev/null 2>&1
check "-g on the command line wins over what a tool asks" \
	grep -qx "mode = fp" "$(session_in "$SCRATCH/user")/session.ini"

# ... and percpu (uprof-tool(3)'s worked example): per-CPU samples sum to the report's
"$UPROF" report -i "$C" --tool "$SCRATCH/src/percpu.so,cpus=1024" >/dev/null 2>&1
cpus_sum=$(csvq "$R" "SAMPLES PER CPU (Tool - percpu)" | awk -F'\t' '{s += $2} END {print s + 0}')
check "percpu: the CPUs' samples sum to the report's ($cpus_sum)" test "$cpus_sum" = "$(csvq "$R" --key Samples)"
if command -v perf >/dev/null; then
	perf script -G -i "$C/samples.data" -F cpu 2>/dev/null | tr -d '[] ' | sort -n | uniq -c |
		awk '{printf "%d\t%d\n", $2, $1}' >"$SCRATCH/perf_cpus"
	csvq "$R" "SAMPLES PER CPU (Tool - percpu)" | awk -F'\t' '$2 > 0 {printf "%d\t%d\n", $1, $2}' >"$SCRATCH/tool_cpus"
	check "percpu: each CPU's samples are perf script's ($(tr '\n\t' ' :' <"$SCRATCH/tool_cpus"))" \
		cmp -s "$SCRATCH/perf_cpus" "$SCRATCH/tool_cpus"
fi

# --- 6b. a tool that asks for an event and DWARF stacks (tests/tool/wants.c)
# tests/tool's tools are built by make (tests/targets/module.mk) into $TGT/tools
WANTS=$TGT/tools/wants.so
"$UPROF" collect --tool "$WANTS,event=task-clock,stacks=dwarf" -o "$SCRATCH/w" "$TGT/demo" >/dev/null 2>&1
W=$(session_in "$SCRATCH/w")
check "a tool's event is sampled after the config's" \
	bash -c "grep -A1 -x '\[event.1\]' '$W/session.ini' | grep -qx 'name = task-clock'"
check "a tool's dwarf stacks are taken" grep -qx "mode = dwarf" "$W/session.ini"
check "session.ini records the tool's event" \
	bash -c "grep -A4 -x '\[tool.0\]' '$W/session.ini' | grep -qx 'events = task-clock'"
"$UPROF" report -i "$W" --cutoff 0 --tool "$WANTS" >/dev/null 2>&1
IFS=$'\t' read -r _ p1 n1 < <(csvq "$W/report.csv" "SAMPLES PER EVENT (Tool - wants)" | sed -n 2p)
col=$(csvq "$W/report.csv" "ALL PROCESSES (Sort Event" | awk -F'\t' '{s += $3} END {printf "%.0f", s}')
check "the tool's task-clock samples x interval = report.csv's task-clock column ($n1 x $p1 = $col)" \
	test "$((n1 * p1))" = "$col"
wsamples=$(csvq "$W/report.csv" --key Samples)
check "a tool's own file is where it belongs, and only there (no path escapes)" \
	bash -c "[ \"\$(cat '$W/tools/wants/counts.txt')\" = '$wsamples' ] && [ \"\$(ls -A '$W/tools')\" = wants ] && [ \"\$(ls -A '$W/tools/wants')\" = counts.txt ] && [ ! -e '$W/escape' ] && [ ! -e '$W/tools/escape' ] && [ ! -e /tmp/escape ]"

# --- 7. a tool built against API 1.0's header still loads and runs
"$UPROF" info --tool "$TGT/tools/old10.so" >"$SCRATCH/info" 2>&1
check "an API 1.0 tool loads: info says its API is 1.0" grep -qE "^Tool API: +1\.0 \(this uprof: 1\.[1-9]" "$SCRATCH/info"
"$UPROF" report -i "$S" --tool "$TGT/tools/old10.so,scale=2" >/dev/null 2>&1
check "an API 1.0 tool runs (exit 0)" test $? = 0
IFS=$'\t' read -r n sess procs thr mods named < <(csvq "$S/report.csv" "OLD TOOL COUNTS (Tool - old10)")
check "an API 1.0 tool sees every sample with its function, its knob applied ($n = 2 x $sess)" \
	test "$n" = $((2 * $(csvq "$S/report.csv" --key Samples))) -a "$named" = "$sess"

# --- 8. refused tools: one message naming the tool, exit 1, nothing written
# tests/tool/broken.c built by make once per kind (segv hang fail major reserved noreg exit
# noentry fork) into $TGT/tools/broken-<kind>.so
expect_fail 1 "a newer major version is refused" "tool .*broken-major.so: refused: built for tool API 2.0; this uprof has API 1\." \
	"$UPROF" info --tool "$TGT/tools/broken-major.so"
expect_fail 1 "a tool without the entry point is refused" "tool .*broken-noentry.so: has no uprof_tool_entry" \
	"$UPROF" info --tool "$TGT/tools/broken-noentry.so"
expect_fail 1 "a bad descriptor (reserved slot set) is refused" "tool .*broken-reserved.so: refused: reserved slot 2 of its descriptor is not zero" \
	"$UPROF" info --tool "$TGT/tools/broken-reserved.so"
expect_fail 1 "a tool that never registers is refused" "registered no descriptor" \
	"$UPROF" info --tool "$TGT/tools/broken-noreg.so"
echo "not an ELF file" >"$SCRATCH/text.so"
expect_fail 1 "a file that is no shared object is refused" "tool .*text.so: cannot load it" \
	"$UPROF" info --tool "$SCRATCH/text.so"
expect_fail 1 "a missing file is said" "tool .*nonesuch.so: no such file" "$UPROF" info --tool "$SCRATCH/nonesuch.so"
expect_fail 1 "collect refuses a refused tool before it runs anything" "broken-major.so: refused" \
	"$UPROF" collect --tool "$TGT/tools/broken-major.so" -o "$SCRATCH/never" "$TGT/demo"
check "... and leaves no session behind" test -z "$(session_in "$SCRATCH/never")"

# --- 9. failing tools at report time: report.csv and the session intact, exit 1, named
"$UPROF" report -i "$S" >/dev/null 2>&1
cp "$S/report.csv" "$SCRATCH/plain.csv"
sum_before=$(cd "$S" && sha256sum samples.data session.ini pauses.csv instrument/* | sha256sum)
for k in segv hang fail exit; do
	start=$(date +%s)
	"$UPROF" report -i "$S" --tool-timeout 3 --tool "$TGT/tools/broken-$k.so" --tool "$HOT" \
		>/dev/null 2>"$SCRATCH/err"
	rc=$? took=$(($(date +%s) - start))
	case $k in
	segv) want="tool .*broken-segv.so: crashed \(Segmentation fault\)" ;;
	hang) want="tool .*broken-hang.so: still running after 3 s: stopped" ;;
	fail) want="tool 'broken-fail' \(.*\): its sample callback failed \(-5: Input/output error\)" ;;
	exit) want="tool .*broken-exit.so: exited \(status 0\) before it was done" ;;
	esac
	check "$k: exit 1 and one message naming the tool ($(grep 'uprof report: tool' "$SCRATCH/err"))" \
		bash -c "[ $rc = 1 ] && [ \$(grep -c '^uprof report: ' '$SCRATCH/err') = 1 ] && grep -qE \"^uprof report: $want\" '$SCRATCH/err'"
	check "$k: report.csv holds the whole base report, without the tool's section" \
		bash -c "diff <(head -n $(wc -l <"$SCRATCH/plain.csv") '$S/report.csv' | grep -v '^Report Command') <(grep -v '^Report Command' '$SCRATCH/plain.csv') >/dev/null && ! grep -q 'Tool - broken' '$S/report.csv'"
	check "$k: the tool beside it still added its section" grep -q "HOTTEST SOURCE LINES (Tool - hotlines)" "$S/report.csv"
	[ $k = hang ] && check "hang: stopped at the limit ($took s)" test "$took" -lt 20
done
start=$(date +%s)
"$UPROF" report -i "$S" --tool "$TGT/tools/broken-fork.so" >/dev/null 2>&1
rc=$? took=$(($(date +%s) - start))
check "a tool that leaves a process running: its report is done at once (exit $rc, $took s)" \
	test "$rc" = 0 -a "$took" -lt 20
check "... its section is kept" grep -q "BROKEN (Tool - broken-fork)" "$S/report.csv"
sleep 0.5
check "... and the process it left is ended" bash -c "! pgrep -f 'broken-[f]ork.so' >/dev/null"
check "the session's files are as collect wrote them" \
	test "$(cd "$S" && sha256sum samples.data session.ini pauses.csv instrument/* | sha256sum)" = "$sum_before"
check "no run directory of a failed tool is left" bash -c "! ls -a '$S/tools' 2>/dev/null | grep -q '^\.run-'"
check "no tool process is left" bash -c "! pgrep -f 'broken-[h]ang.so' >/dev/null"

# a knob given twice is refused (which value was meant is not ours to guess)
"$UPROF" report -i "$S" --tool "$HOT,top=3,top=5" >/dev/null 2>"$SCRATCH/twice.err"
rc=$?
check "a knob given twice: exit 2 and its name ($(head -1 "$SCRATCH/twice.err"))" \
	bash -c "[ $rc = 2 ] && grep -q \"knob 'top' is given twice\" '$SCRATCH/twice.err'"
# two loads of one tool: each its own sections and files
"$UPROF" report -i "$S" --tool "$TL,file" --tool "$TL,file=1,interval=0.5" >/dev/null 2>&1
check "two loads of one tool: sections '(Tool - timeline)' and '(Tool - timeline.2)'" \
	bash -c "grep -q '(Tool - timeline)\"' '$S/report.csv' && grep -q '(Tool - timeline.2)\"' '$S/report.csv'"
check "... and files in tools/timeline/ and tools/timeline.2/" \
	test -f "$S/tools/timeline/timeline.csv" -a -f "$S/tools/timeline.2/timeline.csv"

echo "1..$_n"
