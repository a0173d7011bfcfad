#!/usr/bin/env bash
# Hot functions per OpenMP region and state, and the late thread's blame (report.csv's
# OPENMP HOT FUNCTIONS and OPENMP LATE THREADS). tests/targets/omp_hot.c (clang + LLVM
# libomp): in region 1 thread 0 runs slow_part() for 3x the CPU time thread 1 runs
# fast_part(), then an explicit barrier; in region 2 both run even_part(). The program
# measures its own CPU time in each function and in the barrier, and the wall time by which
# the last thread arrived at the barrier; the report is held against those, as shares (a
# sampler that loses samples evenly keeps them), within 10 %, with --openmp-scope full and
# basic, on the machine as it is and beside two CPU hogs. The waiting thread spins
# (KMP_BLOCKTIME=infinite, KMP_USE_YIELD=0), so that its wait is CPU time the timer samples.
. "$(dirname "$0")/lib/common.sh"

hq() { "$PYTHON" "$HERE/omphotq.py" "$@"; }
# rel A B T: |A/B - 1| <= T
rel() { "$PYTHON" -c "import sys; a,b,t=map(float,sys.argv[1:4]); sys.exit(0 if b > 0 and abs(a/b-1)<=t else 1)" "$@"; }
calc() { "$PYTHON" -c "print($1)"; }
skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
SRC=tests/targets/omp_hot.c
line_of() { grep -n "$1" "$SRC" | sed -n "${2:-1}p" | cut -d: -f1; }
R1="\$omp\$parallel:1@omp_hot.c:$(line_of '^#pragma omp parallel num_threads(2)' 1)"
R2="\$omp\$parallel:2@omp_hot.c:$(line_of '^#pragma omp parallel num_threads(2)' 2)"
HOGS=()
stop_hogs() {
	for p in "${HOGS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${HOGS[@]}"; do wait "$p" 2>/dev/null; done
	HOGS=()
}
trap 'stop_hogs; rm -rf "$SCRATCH"' EXIT

# one_run NAME SCOPE: collect and report omp_hot with --openmp-scope SCOPE, check it
one_run() {
	local name=$1 scope=$2 out=$SCRATCH/$1.out S R pid
	KMP_BLOCKTIME=infinite KMP_USE_YIELD=0 "$UPROF" collect --trace openmp --openmp-scope "$scope" \
		-o "$SCRATCH/$name" "$TGT/omp_hot" 8 >"$out" 2>"$SCRATCH/$name.err"
	check "$name: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/$name")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	pid=$(sed -n 's/.*target pid \([0-9]*\).*/\1/p' "$SCRATCH/$name.err" | head -1)
	read -r slow fast even b0 b1 <<<"$(sed -n 's/^cpu_ms slow=\([0-9.]*\) fast=\([0-9.]*\) even=\([0-9.]*\) barrier0=\([0-9.]*\) barrier1=\([0-9.]*\)/\1 \2 \3 \4 \5/p' "$out")"
	read -r last0 last1 late_ms inwin <<<"$(sed -n 's/^late last0=\([0-9]*\) last1=\([0-9]*\) late_ms=\([0-9.]*\) slow_in_window=\([0-9.]*\)/\1 \2 \3 \4/p' "$out")"
	echo "# $name: the program measured slow ${slow:-?} fast ${fast:-?} even ${even:-?} ms CPU, barrier ${b0:-?} + ${b1:-?} ms CPU; thread 0 last ${last0:-?} times, late by ${late_ms:-?} ms in all"
	check "$name: report has OPENMP HOT FUNCTIONS" grep -q '^OPENMP HOT FUNCTIONS (PID-' "$R"

	# region 1's work: slow_part first, its share and fast_part's as the program measured
	local top s_sh f_sh e_sh want wait_state wcpu work1 inw
	top=$(hq "$R" top "$R1" work 1 Function)
	check "$name: region 1's hottest function in work is slow_part ($top)" [ "$top" = slow_part ]
	s_sh=$(hq "$R" func "$R1" work slow_part Share)
	f_sh=$(hq "$R" func "$R1" work fast_part Share)
	want=$(calc "100 * ${slow:-0} / (${slow:-0} + ${fast:-0} + 1e-9)")
	check "$name: slow_part's share of region 1's work within 10 % of the program's ($s_sh %, $want %)" \
		rel "$s_sh" "$want" 0.10
	want=$(calc "100 * ${fast:-0} / (${slow:-0} + ${fast:-0} + 1e-9)")
	check "$name: fast_part's share of region 1's work within 10 % of the program's ($f_sh %, $want %)" \
		rel "$f_sh" "$want" 0.10
	# region 2: even_part is all of its work; slow_part is not there
	top=$(hq "$R" top "$R2" work 1 Function)
	e_sh=$(hq "$R" func "$R2" work even_part Share)
	check "$name: region 2's hottest function in work is even_part, 90 % of it at least ($top, $e_sh %)" \
		check_sh_quiet "[ '$top' = even_part ] && rel '$e_sh' 100 0.10"
	check "$name: no slow_part in region 2" [ "$(hq "$R" func "$R2" work slow_part Samples)" = 0 ]

	# the waiting thread's samples: the barrier (full) or the runtime's code (basic)
	wait_state="barrier wait"
	[ "$scope" = basic ] && wait_state=runtime
	for fn in slow_part fast_part; do
		check "$name: region 1's $wait_state holds no $fn sample beyond one at its edge" \
			[ "$(hq "$R" func "$R1" "$wait_state" $fn Samples)" -le 1 ]
	done
	wcpu=$(hq "$R" state "$R1" "$wait_state")
	work1=$(hq "$R" state "$R1" work)
	if "$PYTHON" -c "import sys; sys.exit(0 if ${b0:-0} + ${b1:-0} >= 20 else 1)"; then
		# at least the explicit barrier's CPU time, as a ratio to the work's (region 1's
		# implicit barrier at its end adds to it)
		check "$name: region 1's $wait_state ($wcpu s against work $work1 s) holds the program's barrier CPU (${b0:-?} + ${b1:-?} ms against $slow + $fast ms), -10 %" \
			"$PYTHON" -c "import sys; sys.exit(0 if $wcpu / $work1 >= 0.9 * (${b0:-0} + ${b1:-0}) / (${slow:-0} + ${fast:-0}) else 1)"
	else
		skip "$name: the waiting thread hardly ran here (${b0:-?} + ${b1:-?} ms of CPU in the barrier)"
	fi

	if [ "$scope" = basic ]; then
		check "$name: region 1's runtime time is in libomp ($(hq "$R" top "$R1" runtime 1 Module))" \
			bash -c "\"$PYTHON\" '$HERE/omphotq.py' '$R' top '$R1' runtime 1 Module | grep -q '^libomp'"
		check "$name: LATE THREADS says basic scope cannot tell" \
			bash -c "\"$PYTHON\" '$HERE/omphotq.py' '$R' nottold | grep -q 'openmp-scope full'"
		return
	fi
	check "$name: region 1's first late thread waits at the explicit barrier" \
		[ "$(hq "$R" late "$R1" 1 Barrier)" = explicit ]
	check "$name: ... is team member 0" [ "$(hq "$R" late "$R1" 1 "Late ThreadNum")" = 0 ]
	check "$name: ... the initial thread ($pid)" [ "$(hq "$R" late "$R1" 1 "Late ThreadId")" = "$pid" ]
	check "$name: ... last as often as the program saw it last ($(hq "$R" late "$R1" 1 "Times Last"), ${last0:-?})" \
		[ "$(hq "$R" late "$R1" 1 "Times Last")" = "${last0:-x}" ]
	local tl
	tl=$(hq "$R" late "$R1" 1 "Total Late")
	check "$name: ... late by what the program measured within 10 % ($tl s, ${late_ms:-?} ms)" \
		rel "$tl" "$(calc "${late_ms:-0} / 1e3")" 0.10
	check "$name: ... in slow_part while the other waited ($(hq "$R" late "$R1" 1 Function))" \
		[ "$(hq "$R" late "$R1" 1 Function)" = slow_part ]
	inw=$(hq "$R" latefunc "$R1" 1 slow_part Share)
	check "$name: ... slow_part's share of that time within 10 % of the program's ($inw %, $(calc "100 * ${inwin:-0}") %)" \
		rel "$inw" "$(calc "100 * ${inwin:-0}")" 0.10
	[ "$name" = full ] && top_option "$S"
}
# rows per (region, state) and per late thread: 5 by default, --openmp-top n, 0 = all
top_option() {
	local S=$1 R=$1/report.csv most all
	# the most rows any (region, state) or late thread has
	most() { "$PYTHON" -c "
import csv, sys, collections
ls = open(sys.argv[1]).read().split('\n')
n = collections.Counter()
for t in ('OPENMP HOT FUNCTIONS', 'OPENMP LATE THREADS'):
    i = next(k for k, l in enumerate(ls) if l.startswith(t))
    for l in ls[i + 2:]:
        if not l.strip():
            break
        r = next(csv.reader([l]))
        n[(t, r[0], r[1], r[3] if t.endswith('THREADS') else '', r[4] if t.endswith('THREADS') else '')] += 1
print(max(n.values()))" "$1"; }
	check "full: 5 functions at most per (region, state) and late thread by default ($(most "$R"))" \
		[ "$(most "$R")" -le 5 ]
	"$UPROF" report -i "$S" --openmp-top 1 >/dev/null 2>&1
	check "full: --openmp-top 1: one function each ($(most "$R"))" [ "$(most "$R")" = 1 ]
	"$UPROF" report -i "$S" --openmp-top 0 >/dev/null 2>&1
	all=$(most "$R")
	check "full: --openmp-top 0: all of them, more than 5 somewhere ($all)" [ "$all" -gt 5 ]
	expect_fail 2 "--openmp-top of a negative count" "openmp-top" \
		"$UPROF" report -i "$S" --openmp-top -1
}
check_sh_quiet() { eval "$1"; }

if [ ! -x "$TGT/omp_hot" ]; then
	skip "clang or LLVM libomp missing: omp_hot not built"
else
	one_run full full
	one_run basic basic
	for i in 1 2; do
		yes >/dev/null &
		HOGS+=($!)
	done
	one_run full_hogs full
	one_run basic_hogs basic
	stop_hogs
fi

echo "# skipped: $skipped"
echo "1..$_n"
