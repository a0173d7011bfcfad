#!/usr/bin/env bash
# A region's imbalance both ways: tests/targets/omp_imbalance.c runs one region of 2
# threads, 3 times, thread k burning (k + 1) units of its own CPU time (1:2), and measures
# itself: each thread's CPU time in its work (CLOCK_THREAD_CPUTIME_ID) and wall time
# (omp_get_wtime), and max/avg - 1 of each. The report's CPU Imbalance (max/avg - 1 of the
# threads' timer samples in the region) and its wall Imbalance (of Work) must each be
# within 10 % of the program's own, on an idle machine and beside two `yes` CPU hogs, where
# the wall figure is whatever the scheduler made of it and the CPU one still 1:2 (0.333).
# Each build: clang + LLVM libomp (OMPT), gcc + libgomp (--openmp-impl omplib). Also: the
# OPENMP SUMMARY and OVERVIEW lines say their clock and unit, and no wall-time line is
# nested under a CPU-time one; omplib mode warns on collect's stderr (one line, never on
# the program's stdout) and report.csv says libomp ran in place of libgomp; OMPT mode says
# neither. Waiting threads sleep (KMP_BLOCKTIME=0): a spinning wait is CPU time in the
# region, which the program does not count as its work.
. "$(dirname "$0")/lib/common.sh"

ompq() { "$PYTHON" "$HERE/ompq.py" "$@"; }
skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
# within10 A B: |A - B| <= 10 % of B, or 0.01 where that is less (a wall imbalance near 0
# beside the hogs: the runtime's callback and the program's clock read around it are a
# scheduling slice apart at most)
within10() { within 0.1 "$@"; }
# within TOL A B: |A - B| <= TOL of B, or 0.01 where that is less
within() { "$PYTHON" -c "import sys; t,a,b=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-b) <= max(t*abs(b), 0.01) else 1)" "$@"; }
# its pragma's line: the region's row
LINE=$(grep -n '^#pragma omp parallel' tests/targets/omp_imbalance.c | head -1 | cut -d: -f1)
REG="main\$omp\$parallel:1@omp_imbalance.c:$LINE"

HOGS=()
stop_hogs() {
	local p
	for p in "${HOGS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${HOGS[@]}"; do wait "$p" 2>/dev/null; done
	HOGS=()
}
trap 'stop_hogs; rm -rf "$SCRATCH"' EXIT

# clocks REPORT: the OPENMP SUMMARY's and OVERVIEW's time lines each say "(CPU seconds"
# or "(wall seconds"; a line nested under another (more dots) has its parent's clock
clocks() {
	"$PYTHON" - "$1" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().split("\n")
def block(start, stop):
    i = next(k for k, l in enumerate(lines) if l.startswith(start))
    out = []
    for l in lines[i + 1:]:
        if not l.strip() or l.startswith(stop):
            break
        out.append(next(csv.reader([l]))[0])
    return out
def check(rows, what):
    stack = []  # (depth, clock)
    timed = 0
    for label in rows:
        depth = len(label) - len(label.lstrip("."))
        m = re.search(r"\((CPU|wall) seconds", label)
        if "Time(" not in label or "Region" in label or "Profile" in label:
            continue  # uProf's own lines (profile, inside and outside regions)
        if not m:
            sys.exit("%s: %r does not say its clock" % (what, label))
        timed += 1
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack and stack[-1][1] != m.group(1):
            sys.exit("%s: %r (%s) nested under a %s line" % (what, label, m.group(1), stack[-1][1]))
        stack.append((depth, m.group(1)))
    if timed < 5:
        sys.exit("%s: %d time lines, not 5" % (what, timed))
check(block(".. OPENMP SUMMARY", "\"10 HOTTEST"), "OPENMP SUMMARY")
check(block("OpenMP OVERVIEW", "OpenMP Runtime"), "OVERVIEW")
PY
}

# run NAME BINARY LOAD [collect options]: collect (with LOAD hogs beside it) and report;
# sets R (report.csv), OUT (the program's own measures), ERR (collect's stderr), STDOUT
run() {
	local name=$1 bin=$2 load=$3 S
	shift 3
	for ((h = 0; h < load; h++)); do
		yes >/dev/null &
		HOGS+=($!)
	done
	OUT=$SCRATCH/$name.own ERR=$SCRATCH/$name.err STDOUT=$SCRATCH/$name.out
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp "$@" -o "$SCRATCH/$name" "$bin" "$OUT" \
		>"$STDOUT" 2>"$ERR"
	check "$name: collect exits 0" [ $? -eq 0 ]
	stop_hogs
	S=$(session_in "$SCRATCH/$name")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
}

# both_ways NAME: the report's imbalances against the program's own
both_ways() {
	local name=$1 own_cpu own_wall cpu wall cpu_s
	own_cpu=$(sed -n 's/^cpu_imbalance //p' "$OUT")
	own_wall=$(sed -n 's/^wall_imbalance //p' "$OUT")
	cpu=$(ompq "$R" region "$REG" "CPU Imbalance")
	wall=$(ompq "$R" region "$REG" Imbalance)
	echo "# $name: the program measured $(grep _ms "$OUT" | tr '\n' ' ')"
	echo "# $name: CPU imbalance report $cpu program ${own_cpu:-?}; wall imbalance report $wall program ${own_wall:-?}"
	check "$name: 2 threads in the team" [ "$(sed -n 's/^threads //p' "$OUT")" = 2 ]
	check "$name: 3 instances of the region ($REG)" [ "$(ompq "$R" region "$REG" Instances)" = 3 ]
	# the CPU figures' margins widen by what the timer missed here (timer_missed)
	local miss tol
	miss=$(timer_missed "$R")
	tol=$("$PYTHON" -c "print(0.10 + 2 * $miss)")
	check "$name: CPU imbalance within $tol of the program's own CPU times' ($cpu, ${own_cpu:-?}; the timer missed $miss)" \
		within "$tol" "$cpu" "${own_cpu:-nan}"
	check "$name: wall imbalance within 10 % of the program's own wall times' ($wall, ${own_wall:-?})" \
		within10 "$wall" "${own_wall:-nan}"
	# the CPU figure is the construction's 1:2 (1/3) whatever the load made of the wall one
	check "$name: CPU imbalance is 1:2's 1/3 within $tol ($cpu)" within "$tol" "$cpu" 0.333333
	cpu_s=$(ompq "$R" thread "$REG" 1 "CPU Time")
	check "$name: thread 1's CPU time in the region is the program's own within $tol ($cpu_s s)" \
		within "$tol" "$cpu_s" "$("$PYTHON" -c "print($(sed -n 's/^cpu_ms //p' "$OUT" | cut -d' ' -f2) / 1e3)")"
}

if [ ! -x "$TGT/omp_imbalance" ]; then
	skip "clang or LLVM libomp missing: omp_imbalance not built (clang builds)"
else
	for load in 0 2; do
		run "clang-load$load" "$TGT/omp_imbalance" "$load"
		both_ways "clang, $load hogs"
	done
	check "clang: the summary's and overview's lines say their clock, none nested under another clock" \
		clocks "$R"
	check "OMPT mode: no omplib warning from collect" \
		bash -c "! grep -q 'omplib' '$ERR'"
	check "OMPT mode: report.csv says no runtime was substituted" \
		bash -c "! grep -q '^Runtime Substituted' '$R'"
fi

if [ ! -x "$TGT/omp_imbalance_gcc" ] || ! ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	skip "gcc or LLVM libomp missing (gcc builds through --openmp-impl omplib)"
else
	for load in 0 2; do
		run "gcc-load$load" "$TGT/omp_imbalance_gcc" "$load" --openmp-impl omplib
		both_ways "gcc, $load hogs"
	done
	check "gcc: the summary's and overview's lines say their clock, none nested under another clock" \
		clocks "$R"
	echo "# collect's stderr: $(grep omplib "$ERR")"
	check "omplib: collect warns once, on its stderr, that the timings are libomp's" \
		[ "$(grep -c "^uprof collect: warning: --openmp-impl omplib: the program runs on LLVM's libomp (.*) in place of GCC's libgomp, so its OpenMP timings are libomp's$" "$ERR")" = 1 ]
	check "omplib: nothing of it on stdout" bash -c "! grep -q 'omplib' '$STDOUT'"
	check "omplib: report.csv says libomp ran in place of libgomp" \
		grep -q "^Runtime Substituted,\"the program ran on LLVM's libomp in place of GCC's libgomp: its OpenMP timings are libomp's, not libgomp's\"$" "$R"
fi

echo "# skipped: $skipped"
echo "1..$_n"
