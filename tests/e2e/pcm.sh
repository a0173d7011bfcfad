#!/usr/bin/env bash
# uprof pcm: planning on a fake 2-socket AMD machine (tests/fixtures/sysfs, procfs) shown
# by --dry-run; the missing-PMU message on this machine; swi timeseries against perf stat;
# the CSV layout; options; the man page.
. "$(dirname "$0")/lib/common.sh"

FIX=$PWD/tests/fixtures
fake() { UPROF_SYSFS_ROOT=$FIX/sysfs UPROF_PROCFS_ROOT=$FIX/procfs "$UPROF" "$@"; }
# CPUs (sorted, unique, comma-joined) of the dry-run lines matching a regex
cpus_of() { grep -E "$1" | sed -E 's/^cpu=(-?[0-9]+) .*/\1/' | sort -n | uniq | paste -sd, -; }
# one_line_naming PMU TEXT: TEXT is one line, names 'PMU' and says to run uprof info --system
one_line_naming() { [ "$(wc -l <<<"$2")" = 1 ] && grep -q "'$1'" <<<"$2" && grep -q "uprof info --system" <<<"$2"; }
# the attr= part of the first dry-run line matching a regex
attr_of() { grep -E "$1" | head -1 | sed -E 's/.* attr=//'; }

# ---- the fake machine: 16 CPUs, packages 0-7 / 8-15, L3 complexes of 4 CPUs ----
D=$(fake pcm -m ipc,l3,memory -a --dry-run 2>&1)
check "dry-run -a: 176 counters (96 core, 48 msr, 16 L3, 16 DF)" [ "$(grep -c '^cpu=' <<<"$D")" = 176 ]
check "dry-run -a: core events on every CPU" [ "$(cpus_of 'pmu=cpu ' <<<"$D")" = "$(seq -s, 0 15)" ]
check "dry-run -a: L3 events on one CPU per L3 complex (amd_l3 cpumask)" [ "$(cpus_of 'pmu=amd_l3 ' <<<"$D")" = 0,4,8,12 ]
check "dry-run -a: DF events on one CPU per package (amd_df cpumask)" [ "$(cpus_of 'pmu=amd_df ' <<<"$D")" = 0,8 ]
check "cycles leader attr" [ "$(attr_of '^cpu=3 .*event=ipc:CYCLES ' <<<"$D")" = "type=4,size=128,config=0x76,read_format=0x3,disabled=1" ]
check "instructions: a sibling (no disabled bit)" [ "$(attr_of '^cpu=3 .*event=ipc:INST ' <<<"$D")" = "type=4,size=128,config=0xc0,read_format=0x3" ]
check "os=0 gives exclude_kernel" bash -c "grep -E '^cpu=3 .*event=ipc:CYCLES_USER ' <<<'$D' | grep -q 'config=0x76,read_format=0x3,exclude_kernel=1$'"
check "six core events share one kernel group per CPU" [ "$(grep -E '^cpu=7 .*pmu=cpu ' <<<"$D" | sed -E 's/.* group=([0-9]+) .*/\1/' | sort -u | wc -l)" = 1 ]
check "L3 access attr (sysfs type 11, event|umask<<8)" [ "$(attr_of '^cpu=8 .*event=l3:L3_ACCESS ' <<<"$D")" = "type=11,size=128,config=0xff04,read_format=0x3,disabled=1" ]
check "L3 miss latency / requests configs" bash -c "grep -qE '^cpu=12 .*L3_MISS_LAT .*config=0x90,' <<<'$D' && grep -qE '^cpu=12 .*L3_MISS_REQ .*config=0x3f9a,' <<<'$D'"
check "DF event 0x107 split by format config:0-7,32-35" [ "$(attr_of '^cpu=8 .*event=memory:CH_E ' <<<"$D")" = "type=12,size=128,config=0x100003807,read_format=0x3,disabled=1" ]
check "8 DF events, 4 counters: two kernel groups per package (multiplexed)" [ "$(grep -E '^cpu=0 .*pmu=amd_df ' <<<"$D" | sed -E 's/.* group=([0-9]+) .*/\1/' | sort -u | wc -l)" = 2 ]
check "msr events by sysfs alias (aperf = event 0x01)" bash -c "grep -qE '^cpu=0 .*event=ipc:APERF .*attr=type=13,size=128,config=0x1,' <<<'$D'"

D=$(fake pcm -m ipc,l3,memory -c ccx=1 --dry-run 2>&1)
check "-c ccx=1: core events on CPUs 4-7" [ "$(cpus_of 'pmu=cpu ' <<<"$D")" = 4,5,6,7 ]
check "-c ccx=1: L3 on CPU 4 only" [ "$(cpus_of 'pmu=amd_l3 ' <<<"$D")" = 4 ]
check "-c ccx=1: DF on package 0's CPU 0" [ "$(cpus_of 'pmu=amd_df ' <<<"$D")" = 0 ]
D=$(fake pcm -m l3,memory -c package=1 --dry-run 2>&1)
check "-c package=1: L3 on CPUs 8,12, DF on 8" [ "$(cpus_of 'pmu=amd_l3 ' <<<"$D")/$(cpus_of 'pmu=amd_df ' <<<"$D")" = 8,12/8 ]
D=$(fake pcm -m l3 -c core=6 --dry-run 2>&1)
check "-c core=6: L3 read on CPU 4 (its complex)" [ "$(cpus_of 'pmu=amd_l3 ' <<<"$D")" = 4 ]
D=$(fake pcm -m ipc,swi --dry-run -- "$TGT/demo" 2>&1)
check "program: task counters (cpu -1), inherited" bash -c "! grep -q '^cpu=[0-9]' <<<'$D' && grep -c 'inherit=1' <<<'$D' | grep -qx 13"
check "program: enabled at exec on group leaders only" [ "$(grep -c 'enable_on_exec=1' <<<"$D")" = 8 ]
check "swi: software events (type 1), task-clock = config 1" bash -c "grep -qE 'event=swi:TASK_CLOCK .*attr=type=1,size=128,config=0x1,' <<<'$D'"
D=$(fake pcm -m l2 -a -t 4 --dry-run 2>&1)
check "l2: 8 core events for 6 counters: two groups per CPU" [ "$(grep -E '^cpu=5 ' <<<"$D" | sed -E 's/.* group=([0-9]+) .*/\1/' | sort -u | wc -l)" = 2 ]
check "-t is shown, nothing written in a dry run" bash -c "grep -q '^# multiplex interval: 4 ms' <<<'$D' && [ \"\$(cat '$FIX/sysfs/bus/event_source/devices/cpu/perf_event_mux_interval_ms')\" = 4 ]"
out=$(fake info --system)
check "info --system on the fake machine: PMUs with counters" bash -c "grep -q 'Core PMC (cpu): *available: PMU cpu, type 4, 6 counters per core' <<<'$out' && grep -q 'amd_l3, type 11, 6 counters per CCX, read on CPUs 0,4,8,12' <<<'$out' && grep -q 'amd_df, type 12, 4 counters per package, read on CPUs 0,8' <<<'$out'"
check "info --system: family, sockets, CCXs, hypervisor" bash -c "grep -q 'Family: *0x19' <<<'$out' && grep -q 'Sockets: *2' <<<'$out' && grep -q 'CCXs (L3 complexes): *4' <<<'$out' && grep -q 'Hypervisor: *no' <<<'$out'"

# a machine without a Data Fabric PMU: one message naming it
cp -r "$FIX/sysfs" "$SCRATCH/sysfs" && rm -rf "$SCRATCH/sysfs/bus/event_source/devices/amd_df"
err=$(UPROF_SYSFS_ROOT=$SCRATCH/sysfs UPROF_PROCFS_ROOT=$FIX/procfs "$UPROF" pcm -m ipc,memory -a --dry-run 2>&1 >/dev/null); rc=$?
check "missing amd_df: exit 1" [ $rc = 1 ]
check "missing amd_df: one line naming the PMU and 'uprof info --system'" one_line_naming amd_df "$err"

# ---- this machine ----
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	err=$("$UPROF" pcm -m ipc -d 1 2>&1 >/dev/null); rc=$?
	check "no core PMU: -m ipc exits 1" [ $rc = 1 ]
	check "no core PMU: one line naming 'cpu' and 'uprof info --system' ($err)" one_line_naming cpu "$err"
	"$UPROF" pcm -m ipc,swi -- "$TGT/demo" 10 >/dev/null 2>&1
	check "no core PMU: -m ipc,swi with a program fails too, without running it" [ $? = 1 ]
else
	echo "ok - # SKIP this machine has a core PMU (missing-PMU message tested on the fake tree)"
fi
if [ ! -e /sys/bus/event_source/devices/amd_l3 ]; then
	err=$("$UPROF" pcm -m l3 -d 1 2>&1 >/dev/null)
	check "no L3 PMU: -m l3 names amd_l3" grep -q "'amd_l3'" <<<"$err"
fi

# swi on this machine: one row per 100 ms interval, compared with perf stat on the same run.
# The workload (build/targets/pcm_work: 2048 page faults, 400 short sleeps, fixed
# arithmetic) starts under uprof pcm and waits at a gate (a FIFO) before doing anything;
# perf stat attaches to it with -p, starts disabled (-D -1), and is enabled through its
# control FIFO; once perf has acknowledged, the gate opens. Both tools then count the same
# run and their totals (sum of the rows = the cumulative table) must agree within 5%:
# CPU time with task-clock, context switches, page faults, CPU migrations (within 5% or 3).
# uprof alone also counts the exec and the dynamic loader before the gate (about 50 page
# faults, under a millisecond). Everything is pinned to one CPU (taskset): migrations are
# then a deterministic 0 instead of scheduler noise from whatever else this machine runs.
W="$TGT/pcm_work"
PIN=""
command -v taskset >/dev/null && PIN="taskset -c $(($(nproc) - 1))"
$PIN "$UPROF" pcm -m swi -I 100 -d 1 -o "$SCRATCH/swi.csv" -- "$W" >"$SCRATCH/swi.sum" 2>"$SCRATCH/swi.err"
check "swi run exits 0 and says where the CSV is" bash -c "grep -q 'Generated data file path: $SCRATCH/swi.csv' '$SCRATCH/swi.err'"
"$PYTHON" - "$SCRATCH/swi.csv" >"$SCRATCH/rows.txt" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = next(k for k, r in enumerate(rows) if r and r[0] == "Timestamp")
h1, h2, hdr, data = rows[i - 2], rows[i - 1], rows[i], rows[i + 1:]
def ms(t):
    h, m, s, x = map(int, t.split(":"))
    return ((h * 60 + m) * 60 + s) * 1000 + x
gaps = [ms(b[0]) - ms(a[0]) for a, b in zip(data, data[1:])]
print("rows", len(data))
print("title", h1[1])
print("comp", h2[1])
print("trailing", all(r[-1] == "" for r in [hdr] + data))
# a row is stamped with its reading, taken no earlier than 100 ms after the reading before
# (later by the load: no upper bound), the stamps cut to the ms; the last row is partial
print("gaps_ok", all(g >= 99 for g in gaps[:-1]) and all(g >= 0 for g in gaps) and len(gaps) > 0)
print("gaps", "/".join(map(str, gaps)))
for col in ("CPU Time (ms)", "Context Switches", "CPU Migrations", "Page Faults"):
    k = hdr.index(col)
    print(col.replace(" ", "_"), sum(float(r[k]) for r in data))
# counts as counted: every cell of the three counts an integer; the scale a column apart
counts = [r[hdr.index(c)] for r in data for c in ("Context Switches", "CPU Migrations", "Page Faults")]
print("int_counts", len(counts) > 0 and all(c.isdigit() for c in counts))
print("scales", "/".join(sorted(set(r[hdr.index("Multiplex Scale (enabled/running)")] for r in data))))
EOF
val() { awk -v k="$1" '$1 == k { print $2 }' "$SCRATCH/rows.txt"; }
rows=$(val rows)
# at most 10: each reading is 100 ms or more after the one before and -d 1 ends the run;
# 2 or more: pcm_work sleeps 400 x 0.3 ms, so it still runs at the first 100 ms reading
check "timeseries: one row per 100 ms interval ($rows rows, -d 1)" bash -c "[ '$rows' -ge 2 ] && [ '$rows' -le 10 ]"
check "rows are at least 100 ms apart, the last one the partial interval ($(val gaps) ms)" [ "$(val gaps_ok)" = True ]
check "header rows: OS METRICS / System (Aggregated) / metric names" [ "$(val title)/$(val comp)" = "OS/System" ]
check "every header and data row ends with a comma" [ "$(val trailing)" = True ]
check "cumulative summary on stdout" bash -c "grep -qx 'Metric,System (Aggregated)' '$SCRATCH/swi.sum' && grep -q '^Page Faults,' '$SCRATCH/swi.sum'"
sum_pf=$(val Page_Faults)
cum_pf=$(awk -F, '$1 == "Page Faults" { print $2 }' "$SCRATCH/swi.sum")
check "rows add up to the cumulative value, exactly ($sum_pf = $cum_pf)" \
	"$PYTHON" -c "import sys; sys.exit(0 if float('$sum_pf') == int('$cum_pf') else 1)"
check "counts are integers as counted, in every row" [ "$(val int_counts)" = True ]
# software events are never multiplexed: each row's scale is 1.00 (the column is there)
check "the multiplex scale is a column of its own: 1.00 for software events ($(val scales))" [ "$(val scales)" = 1.00 ]
# same_run_with_perf_stat: uprof pcm -> $SCRATCH/gated.{csv,sum}, perf stat -> perf.txt
same_run_with_perf_stat() {
	local d=$SCRATCH/gate up wp pp ack
	mkdir -p "$d" && mkfifo "$d/gate" "$d/ctl" "$d/ack" || return 1
	PCM_WORK_GATE=$d/gate $PIN "$UPROF" pcm -m swi -I 100 -d 5 -o "$SCRATCH/gated.csv" -- "$W" \
		>"$SCRATCH/gated.sum" 2>/dev/null &
	up=$!
	for _ in $(seq 100); do wp=$(pgrep -P "$up" -x pcm_work) && break; sleep 0.05; done
	[ -n "$wp" ] || return 1
	timeout 20 perf stat -x, -e task-clock,context-switches,cpu-migrations,page-faults -p "$wp" \
		-D -1 --control "fifo:$d/ctl,$d/ack" -o "$SCRATCH/perf.txt" 2>/dev/null &
	pp=$!
	exec 8>"$d/ctl" 9<"$d/ack"
	echo enable >&8
	read -r -t 10 -u 9 ack
	exec 8>&- 9<&-
	[ "$ack" = ack ] || { kill "$wp" "$pp" 2>/dev/null; return 1; }
	timeout 10 sh -c "echo go >'$d/gate'"
	wait "$up" && wait "$pp"
}
if perf stat -h 2>&1 | grep -q -- --control && perf stat -e task-clock true >/dev/null 2>&1; then
	same_run_with_perf_stat
	check "gated run: uprof pcm and perf stat -p both finish" [ $? = 0 ]
	cmp=$("$PYTHON" - "$SCRATCH" <<'EOF'
import csv, sys
d = sys.argv[1]
perf = {}
for line in open(f"{d}/perf.txt"):
    f = line.strip().split(",")
    if len(f) > 2 and f[2] in ("task-clock", "context-switches", "cpu-migrations", "page-faults"):
        perf[f[2]] = float(f[0])
rows = list(csv.reader(open(f"{d}/gated.csv")))
i = next(k for k, r in enumerate(rows) if r and r[0] == "Timestamp")
hdr, data = rows[i], [r for r in rows[i + 1:] if r and r[0][:1].isdigit()]
pairs = [("task-clock", "CPU Time (ms)", 0), ("context-switches", "Context Switches", 0),
         ("page-faults", "Page Faults", 0), ("cpu-migrations", "CPU Migrations", 3)]
for pk, uk, floor in pairs:
    p = perf[pk]
    u = sum(float(r[hdr.index(uk)]) for r in data)
    ok = abs(p - u) <= max(0.05 * p, floor)
    print(f"{'ok' if ok else 'BAD'} {uk}: uprof {u:.1f} ({len(data)} rows) perf {p:.1f}")
EOF
	)
	while read -r verdict rest; do
		if [ "$verdict" = ok ]; then ok "swi vs perf stat, same run: $rest"; else not_ok "swi vs perf stat, same run: $rest"; fi
	done <<<"$cmp"
else
	echo "ok - # SKIP perf stat cannot count here"
fi

# system-wide swi for a duration: rows of 200 ms, utilization within 0..100 %. Each
# reading is 200 ms or more after the one before and the run ends 1 s after the start, so
# 5 rows at most (fewer when a loaded machine read late); every gap but the last >= 200 ms
"$UPROF" pcm -m swi -a -I 200 -d 1 -o "$SCRATCH/sys.csv" >/dev/null 2>&1
n=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{3},' "$SCRATCH/sys.csv")
check "-a -I 200 -d 1: 1 to 5 rows ($n)" bash -c "[ '$n' -ge 1 ] && [ '$n' -le 5 ]"
gaps=$(grep -oE '^[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{3},' "$SCRATCH/sys.csv" |
	awk -F'[:,]' '{t = (($1 * 60 + $2) * 60 + $3) * 1000 + $4; if (NR > 1) printf "%d ", t - p; p = t}')
check "-a -I 200: rows at least 200 ms apart, the last one the partial interval ($gaps)" \
	"$PYTHON" -c "import sys; g = list(map(int, sys.argv[1:])); sys.exit(0 if all(x >= 199 for x in g[:-1]) and all(x >= 0 for x in g) else 1)" $gaps
# (idle time comes from /proc/stat in clock ticks, so allow half a percent either way)
bad=$(grep -E '^[0-9]{2}:' "$SCRATCH/sys.csv" | awk -F, '$2 == "" || $2 + 0 < -0.5 || $2 + 0 > 100.5')
check "-a: CPU utilization between 0 and 100 $bad" [ -z "$bad" ]
check "metadata lines" bash -c "grep -q '^Number of Threads :,' '$SCRATCH/sys.csv' && grep -q '^Sample interval (ms):,200$' '$SCRATCH/sys.csv' && grep -q '^Profile Time:,' '$SCRATCH/sys.csv' && grep -q '^CPU Topology:' '$SCRATCH/sys.csv'"
out=$("$UPROF" pcm -m swi -C -d 0.3 2>/dev/null)
check "-C: only the cumulative table (5 metrics and the multiplex scale)" bash -c "head -1 <<<'$out' | grep -qx 'Metric,System (Aggregated)' && [ \$(wc -l <<<'$out') = 7 ]"
"$UPROF" pcm -m swi -A system,package -a -d 0.2 -o "$SCRATCH/lv.csv" >/dev/null 2>&1
check "-A system,package: a Package (Aggregated)-0 block" grep -q 'Package (Aggregated)-0' "$SCRATCH/lv.csv"

# exit status and usage errors
"$UPROF" pcm -m swi -- /bin/sh -c 'exit 3' >/dev/null 2>&1
check "the program's exit status passes through" [ $? = 3 ]
for bad in "-d 1" "-m swi" "-m swi -a -c core=0 -d 1" "-m swi -C -I 100 -d 1" "-m nosuch -d 1" \
	"-m swi -I 5 -d 1" "-m swi -A socket -d 1" "-m swi -d 0" "-m swi -A core -- /bin/true"; do
	"$UPROF" pcm $bad >/dev/null 2>&1
	check "usage error: pcm $bad exits 2" [ $? = 2 ]
done
"$UPROF" pcm -m swi -- /nonexistent/prog >/dev/null 2>&1
check "a program that does not exist: exit 1" [ $? = 1 ]

# help, man page
check "pcm --help exits 0" bash -c "'$UPROF' pcm --help >/dev/null"
check "man page uprof-pcm renders without warnings (groff -ww)" bash -c "[ -z \"\$(groff -man -ww -z man/uprof-pcm.1 2>&1)\" ]"
check "man page uprof-pcm renders without warnings (man)" bash -c "[ -z \"\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l man/uprof-pcm.1 2>&1 >/dev/null)\" ]"
for opt in $("$UPROF" pcm --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	if grep -q -- "$(sed 's/-/\\\\-/g' <<<"$opt")" man/uprof-pcm.1; then ok "man/uprof-pcm.1 documents $opt"; else not_ok "man/uprof-pcm.1 documents $opt"; fi
done
check "uprof.1 lists pcm" grep -q 'uprof\\-pcm (1)' man/uprof.1

# the output file is the result: a disk that is full when the rows reach it is an error
expect_fail 1 "pcm -o on a full disk" "cannot write '/dev/full': No space left" \
	"$UPROF" pcm -m swi -o /dev/full -- /bin/true
exit 0
