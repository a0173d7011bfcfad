#!/usr/bin/env bash
# OpenMP regions through a partial window, a fork and an exit() inside a region
# (tests/targets/omp_window.c, a program that lives in 2-thread parallel regions and logs
# each one it completed, with its CLOCK_MONOTONIC time, as it completes it):
# - `collect -d 1` and a SIGINT to collect end the window while the program runs on: the
#   tool's summary never comes, and the report rebuilds the regions from their records.
#   The instances it reports are never more than the program had completed when collect
#   returned, and at least those it had completed before the window's end (session.ini's
#   end_mono_ns, the samples' clock); what the window cut is said.
# - a forked child's regions are its own process's, counted exactly; the parent's too.
# - exit() inside a region: the instance counted (not a row of 0 instances) and said.
# - --start-paused and the pause/resume API: the instances between resume and pause,
#   exactly (the program pauses and resumes between regions).
# Built by clang (LLVM libomp, OMPT) and by gcc (libgomp: traced through omplib).
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
# cell PID REPORT SECTION NAME COLUMN: the cell of the row whose first cell contains NAME
# in the table "OpenMP <SECTION> (...PID-<PID>)" (OVERVIEW: the value of key NAME)
cell() {
	"$PYTHON" - "$@" <<'EOF'
import csv, sys
pid, path, sect, name = sys.argv[1:5]
colname = sys.argv[5] if len(sys.argv) > 5 else None
ls = open(path, newline="").read().split("\n")
for i, l in enumerate(ls):
    if l.startswith("OpenMP " + sect + " (") and l.endswith("PID-" + pid + ")"):
        body = []
        for m in ls[i + 1:]:
            if not m.strip():
                break
            body.append(next(csv.reader([m])))
        if sect == "OVERVIEW":
            for r in body:
                if r[0] == name:
                    print(r[1]); sys.exit(0)
            sys.exit(1)
        hdr = [h.split("(")[0].strip() for h in body[0]]
        for r in body[1:]:
            if name in r[0]:
                print(r[hdr.index(colname)]); sys.exit(0)
sys.exit(1)
EOF
}
# lines LOG MODE [BEFORE_NS]: regions the program logged (completed), all or those before
lines() { [ -e "$1" ] || { echo 0; return; }; awk -v m="$2" -v t="${3:-}" '$1 == m && (t == "" || $4 <= t) { n++ } END { print n + 0 }' "$1"; }

# window_checks WHAT SESSION LOG UPPER: the report of a window that ended while the program
# ran on; UPPER: the regions the program had completed when collect returned
window_checks() {
	local what=$1 S=$2 log=$3 upper=$4 R=$2/report.csv pid end lower inst cut t0 t1
	pid=$(awk '$1 == "loop" { print $2; exit }' "$log")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/rerr"
	check "$what: report exits 0" [ $? -eq 0 ]
	end=$(sed -n 's/^end_mono_ns = //p' "$S/session.ini")
	lower=$(lines "$log" loop "$end")
	inst=$(cell "$pid" "$R" 'PARALLEL-REGION METRIC' 'region_a$omp$parallel' Instances)
	echo "# $what: $inst instances reported; the program completed $lower before the window's end, $upper by collect's return"
	check "$what: the completed regions are reported ($inst, not none)" [ "${inst:-0}" -gt 0 ]
	check "$what: never more than the program completed ($inst <= $upper)" [ "${inst:-0}" -le "$upper" ]
	check "$what: all it completed before the window's end ($inst >= $lower)" [ "${inst:-0}" -ge "$lower" ]
	# implicit tasks: the encountering thread's, one per instance; the worker's last may
	# end after the window (libomp ends it when the worker wakes for the next region)
	t0=$(grep -A4 'THREAD METRIC (region_a' "$R" | awk -F, '$1 == 0 { print $9 }')
	t1=$(grep -A4 'THREAD METRIC (region_a' "$R" | awk -F, '$1 == 1 { print $9 }')
	check "$what: thread 0 ran one implicit task per instance ($t0)" [ "${t0:-x}" = "$inst" ]
	check_sh "$what: thread 1 those or one fewer ($t1)" \
		'[ "${t1:-0}" -le "$inst" ] && [ "${t1:-0}" -ge $((inst - 1)) ]'
	cut=$(cell "$pid" "$R" OVERVIEW "Window Cut")
	echo "# $what: $cut"
	check "$what: the report says what the window cut ($cut)" \
		grep -qE "^0 region instances cut at the window's start, [01] region instances cut at the window's end" <<<"$cut"
	check "$what: the regions were rebuilt, and it says so" \
		grep -q "^Window,\"the process outlived the window" "$R"
	check "$what: no unpaired records: the cut ones are counted as cut" \
		bash -c "! grep -q '^Records Lost' '$R'"
}

run_build() {
	local name=$1 bin=$2 T=$SCRATCH/$1 S R log upper cpid ppid pid
	shift 2
	mkdir -p "$T"
	# --- -d 1 over a program that runs 4 s
	log=$T/d.log
	"$UPROF" collect --trace openmp "$@" -d 1 -o "$T/d" "$bin" "$log" loop 4 >/dev/null 2>"$T/d.err"
	check "$name -d 1: collect exits 0" [ $? -eq 0 ]
	upper=$(lines "$log" loop)
	window_checks "$name -d 1" "$(session_in "$T/d")" "$log" "$upper"
	# --- SIGINT to collect while the program runs
	log=$T/i.log
	"$UPROF" collect --trace openmp "$@" -o "$T/i" "$bin" "$log" loop 4 >/dev/null 2>"$T/i.err" &
	pid=$!
	for _ in $(seq 200); do [ "$(lines "$log" loop)" -ge 10 ] && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid"
	check "$name SIGINT: collect ends, interrupted (128 + SIGINT)" [ $? -eq 130 ]
	upper=$(lines "$log" loop)
	window_checks "$name SIGINT" "$(session_in "$T/i")" "$log" "$upper"
	# --- --start-paused, resumed by the API after 5 regions, paused after 7 more, 4 after:
	# the window holds the 7, exactly (pause and resume come between regions)
	log=$T/w.log
	"$UPROF" collect --trace openmp "$@" --start-paused -o "$T/w" "$bin" "$log" window 5 7 4 \
		>/dev/null 2>"$T/w.err"
	check "$name paused: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$T/w")
	R=$S/report.csv
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/rerr"
	pid=$(awk '$1 == "window" { print $2; exit }' "$log")
	check "$name paused: the program ran 16 regions" [ "$(lines "$log" window)" = 16 ]
	local inst tasks
	inst=$(cell "$pid" "$R" 'PARALLEL-REGION METRIC' 'region_a$omp$parallel' Instances)
	tasks=$(grep -A4 'THREAD METRIC (region_a' "$R" | awk -F, '$1 == 0 || $1 == 1 { print $9 }' | sort -u | tr '\n' ' ')
	check "$name paused: the window between resume and pause holds 7 instances ($inst)" [ "$inst" = 7 ]
	check "$name paused: 7 implicit tasks on each thread ($tasks)" [ "$tasks" = "7 " ]
	check "$name paused: nothing cut" \
		[ "$(cell "$pid" "$R" OVERVIEW "Window Cut")" = "0 region instances cut at the window's start, 0 region instances cut at the window's end (not counted)" ]
	check "$name paused: the report says the figures come from the windows" \
		grep -q '^Window,"the session was paused' "$R"
	# --- fork: 3 + 3 regions in the parent, 4 in the child
	log=$T/f.log
	"$UPROF" collect --trace openmp "$@" -o "$T/f" "$bin" "$log" fork 3 4 >/dev/null 2>"$T/f.err"
	check "$name fork: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$T/f")
	R=$S/report.csv
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/rerr"
	ppid=$(awk '$1 == "parent" { print $2; exit }' "$log")
	cpid=$(awk '$1 == "child" { print $2; exit }' "$log")
	check "$name fork: the parent's region, 6 instances" \
		[ "$(cell "$ppid" "$R" 'PARALLEL-REGION METRIC' 'region_a$omp$parallel' Instances)" = 6 ]
	check "$name fork: the child's region, 4 instances in the child's own table" \
		[ "$(cell "$cpid" "$R" 'PARALLEL-REGION METRIC' 'region_child$omp$parallel' Instances)" = 4 ]
	check "$name fork: the parent has no child's region" \
		bash -c "! grep -A3 'PARALLEL-REGION METRIC (PID-$ppid)' '$R' | grep -q region_child"
	check "$name fork: the child has none of the parent's regions" \
		bash -c "! grep -A3 'PARALLEL-REGION METRIC (PID-$cpid)' '$R' | grep -q region_a"
	check "$name fork: the child's regions ran on the child's thread ($cpid)" \
		grep -q "^0,$cpid," <(grep -A3 'THREAD METRIC (region_child' "$R")
	check "$name fork: the child's runtime is named" \
		[ "$(cell "$cpid" "$R" OVERVIEW "OpenMP Runtime")" != unknown ]
	check "$name fork: two OpenMP processes (system()'s child, which exec'd, is none)" \
		[ "$(grep -c '^OpenMP OVERVIEW' "$R")" = 2 ]
	check "$name fork: nothing cut, nothing lost" \
		bash -c "! grep -qE '^(Window|Cut By Exit|Records Lost)' '$R'"
	# --- exit() inside the 4th region
	log=$T/e.log
	"$UPROF" collect --trace openmp "$@" -o "$T/e" "$bin" "$log" exit 3 >/dev/null 2>"$T/e.err"
	check "$name exit: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$T/e")
	R=$S/report.csv
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/rerr"
	pid=$(awk '$1 == "exit" { print $2; exit }' "$log")
	check "$name exit: the program logged 4 regions, the last one before exit()" \
		[ "$(lines "$log" exit)" = 4 ]
	check "$name exit: the region exit() ended counts its one instance" \
		[ "$(cell "$pid" "$R" 'PARALLEL-REGION METRIC' 'exit_run$omp$parallel' Instances)" = 1 ]
	check "$name exit: its two threads' implicit tasks too" \
		[ "$(grep -A4 'THREAD METRIC (exit_run' "$R" | "$PYTHON" -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
col = rows[1].index("Implicit Tasks")
print(sum(1 for r in rows[2:] if len(r) > col and r[0] in ("0", "1") and r[col] == "1"))')" = 2 ]
	check "$name exit: the regions before, 3 instances" \
		[ "$(cell "$pid" "$R" 'PARALLEL-REGION METRIC' 'region_a$omp$parallel' Instances)" = 3 ]
	check "$name exit: the report says 1 instance was cut by exit()" \
		[ "$(cell "$pid" "$R" OVERVIEW "Cut By Exit")" = "1 region instances cut by exit() (counted, their time up to the exit)" ]
}

if [ -x "$TGT/omp_window" ]; then
	run_build clang "$TGT/omp_window"
else
	skip "clang or LLVM libomp missing: omp_window not built"
fi
if [ ! -x "$TGT/omp_window_gcc" ]; then
	skip "omp_window_gcc not built"
elif ! ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1 && [ -z "${UPROF_LIBOMP:-}" ]; then
	skip "LLVM libomp missing: gcc's build cannot be traced (omplib)"
else
	run_build gcc "$TGT/omp_window_gcc" --openmp-impl omplib
fi
echo "# $skipped skipped"
echo "1..$_n"
