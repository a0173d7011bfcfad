#!/usr/bin/env bash
# OpenMP waits by type, per region and per thread (report.csv's OpenMP WAITS table), held
# against what the program measured of itself on the same run (tests/targets/omp_waits.c):
# an explicit barrier thread 0 comes to HOLD ms late, a critical section and an omp lock
# thread 0 holds HOLD ms while the others ask, a taskwait and a taskgroup's end on a task of
# HOLD ms another thread runs, an ordered loop whose first iteration holds its turn HOLD ms,
# and a static loop whose first iteration sleeps HOLD ms (the others wait in the loop's
# closing barrier). Each type's total per region, and each thread's, is within
# 10 % of the program's own omp_get_wtime measure; the tool's wait lies inside the
# program's interval, so it is never more than that (+1 %, +1 ms for clocks). Types the
# region has none of read exactly 0. Both scopes: --openmp-scope full (from the wait
# records) and basic (the tool's sums) agree within 10 %; again with two `yes` hogs on the
# CPUs. Builds: clang + libomp, clang-19 + LLVM 19's runtime (which tells the loop's
# barrier from the region's), gcc through --openmp-impl omplib.
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
waitq() { "$PYTHON" "$HERE/waitq.py" "$@"; }
HOLD=200
# (awk, not python, for the arithmetic: hundreds of checks, one interpreter start each)
# within A B: |A - B| <= 10 % of B, and A <= B * 1.01 + 1 ms (A, B in seconds)
within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.1 * b && a <= b * 1.01 + 1e-3) }'; }
# at_most A B: A <= B * 1.01 + 1 ms (a wait the program saw as short)
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b * 1.01 + 1e-3) }'; }
# agree A PA B PB: two runs' waits A and B, each over what its own program measured (PA, PB),
# within 0.1 of each other (the runs' waits themselves differ as the schedule did)
agree() { awk -v a="$1" -v pa="$2" -v b="$3" -v pb="$4" 'BEGIN { if (pa <= 0 || pb <= 0) exit 1; d = a / pa - b / pb; if (d < 0) d = -d; exit !(d <= 0.1) }'; }
# prog OUT TYPE[+TYPE] [THREAD]: what the program measured, s (a thread's, or the sum)
prog() {
	awk -v t="+$2+" -v th="${3:-all}" '$1 == "wait" && index(t, "+" $2 "+") {
		split($4, a, "="); split($5, m, "=");
		if (th == "all" || a[2] == th) s += m[2] / 1e3 } END { printf "%.6f\n", s }' "$1"
}
line_of() { awk -v t="$2" '$1 == "wait" && $2 == t { split($3, l, "="); print l[2]; exit }' "$1"; }
# cols REPORT SUFFIX THREAD "COL|COL...": the sum of those cells (the columns a runtime
# may put one wait in)
cols() { waitq "$1" sum "$2" "$3" "$4"; }

# run NAME TARGET SCOPE [collect options]: collect and report; the report in $SCRATCH/NAME.csv
run() {
	local name=$1 target=$2 scope=$3 S
	shift 3
	KMP_BLOCKTIME=0 OMP_WAIT_POLICY=passive "$UPROF" collect --trace openmp \
		--openmp-scope "$scope" "$@" -o "$SCRATCH/$name" "$target" $HOLD \
		>"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err"
	check "$name: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/$name")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/$name.rerr"
	check "$name: report exits 0" [ $? -eq 0 ]
	cp "$S/report.csv" "$SCRATCH/$name.csv" 2>/dev/null
}

# checks NAME SCOPE EXPLICIT_COLUMNS WORKSHARE_COLUMNS WORKSHARE_TYPES: each region's waits
# against the program's; the explicit barrier's and the loop's barrier's columns are the
# runtime's word for them ("A|B": their sum), the loop's counted with the region's closing
# barrier ("workshare+closing") where the runtime gives both one name
checks() {
	local name=$1 scope=$2 ex_cols=$3 ws_cols=$4 ws_types=$5
	local R=$SCRATCH/$name.csv O=$SCRATCH/$name.out
	local type types set skipz l got want th ran c v
	if [ "$scope" = full ]; then
		check "$name: the waits come from the wait records" \
			[ "$(waitq "$R" from)" = "wait records (--openmp-scope full)" ]
		check "$name: every wait record paired" [ "$(waitq "$R" unpaired)" = 0 ]
	else
		check "$name: the waits come from the tool's sums" \
			[ "$(waitq "$R" from)" = "the tool's sums per thread (--openmp-scope basic)" ]
	fi
	for type in "explicit:$ex_cols" critical:Critical lock:Lock ordered:Ordered "workshare:$ws_cols"; do
		set=${type#*:}
		type=${type%%:*}
		types=$type
		# beside the wait made: the region's closing barrier, and an ordered loop's own
		skipz="Implicit Barrier|$set"
		[ "$type" = ordered ] && skipz="$skipz|Worksharing Barrier|Runtime Barrier"
		[ "$type" = workshare ] && types=$ws_types
		l=$(line_of "$O" "$type")
		got=$(cols "$R" "@omp_waits.c:$l" all "$set")
		want=$(prog "$O" "$types")
		echo "# $name $type (line $l): $set $got s, the program measured $want s ($types)"
		check "$name: $type region's wait ($set) within 10 % of the program's ($got s, $want s)" \
			within "$got" "$want"
		for th in 0 1 2 3; do
			got=$(cols "$R" "@omp_waits.c:$l" "$th" "$set")
			want=$(prog "$O" "$types" "$th")
			if [ "$th" = 0 ]; then
				check "$name: $type region, thread 0 (the late one) waits no more than it measured ($got s, $want s)" \
					at_most "$got" "$want"
			else
				check "$name: $type region, thread $th's wait within 10 % of its own measure ($got s, $want s)" \
					within "$got" "$want"
			fi
		done
		# the region's closing barrier is the one wait beside the one made
		while IFS=$'\t' read -r c v; do
			[[ "|$skipz|" == *"|$c|"* ]] && continue
			check "$name: $type region: no $c wait ($v s)" [ "$v" = 0.000000 ]
		done < <(waitq "$R" row "@omp_waits.c:$l" all)
	done
	for type in taskwait:Taskwait taskgroup:Taskgroup; do
		c=${type#*:}
		type=${type%%:*}
		l=$(line_of "$O" "$type")
		ran=$(sed -n "s/^$type ran_by=//p" "$O")
		got=$(waitq "$R" cell "@omp_waits.c:$l" 0 "$c")
		want=$(prog "$O" "$type" 0)
		if [ "${ran:-0}" -gt 0 ] 2>/dev/null; then
			check "$name: thread 0's $c wait (the task ran on thread $ran) within 10 % of the program's ($got s, $want s)" \
				within "$got" "$want"
		else
			skip "$name: $type: no other thread took the task (ran_by=${ran:-?}), so thread 0 ran it and did not wait"
		fi
	done
}

# total NAME TYPE "COL|..": a region's total of those columns
total() { cols "$SCRATCH/$1.csv" "@omp_waits.c:$(line_of "$SCRATCH/$1.out" "$2")" all "$3"; }
thread0() { cols "$SCRATCH/$1.csv" "@omp_waits.c:$(line_of "$SCRATCH/$1.out" "$2")" 0 "$3"; }

# scopes BASE TARGET EXPLICIT_COLUMNS WORKSHARE_COLUMNS [collect options]: both scopes
# of one build, each checked, then each type's total of one against the other's
scopes() {
	local base=$1 target=$2 ex_cols=$3 ws_cols=$4 ws_types=$5 type types set a b pa pb
	shift 5
	run "$base-full" "$target" full "$@"
	checks "$base-full" full "$ex_cols" "$ws_cols" "$ws_types"
	run "$base-basic" "$target" basic "$@"
	checks "$base-basic" basic "$ex_cols" "$ws_cols" "$ws_types"
	for type in "explicit:$ex_cols" critical:Critical lock:Lock ordered:Ordered "workshare:$ws_cols" \
		taskwait:Taskwait taskgroup:Taskgroup; do
		set=${type#*:}
		type=${type%%:*}
		types=$type
		[ "$type" = workshare ] && types=$ws_types
		a=$(total "$base-full" "$type" "$set")
		b=$(total "$base-basic" "$type" "$set")
		pa=$(prog "$SCRATCH/$base-full.out" "$types")
		pb=$(prog "$SCRATCH/$base-basic.out" "$types")
		if [[ "$type" == task* ]] && { ! grep -q "^$type ran_by=[1-9]" "$SCRATCH/$base-full.out" ||
			! grep -q "^$type ran_by=[1-9]" "$SCRATCH/$base-basic.out"; }; then
			skip "$base: $type: in a run thread 0 ran its task itself (no wait to compare)"
			continue
		fi
		check "$base: full and basic scopes agree on the $type region's wait within 10 % of what each run measured (full $a of $pa s, basic $b of $pb s)" \
			agree "$a" "$pa" "$b" "$pb"
	done
}

if [ ! -x "$TGT/omp_waits" ]; then
	skip "clang or LLVM libomp missing: omp_waits not built"
else
	# libomp 14 calls every implicit barrier "implicit": the loop's counts there
	scopes clang "$TGT/omp_waits" "Explicit Barrier" "Implicit Barrier|Worksharing Barrier" \
		workshare+closing
	# two CPU hogs: the waits stay what the program measured, on any schedule
	yes >/dev/null &
	hog1=$!
	yes >/dev/null &
	hog2=$!
	scopes clang-hogs "$TGT/omp_waits" "Explicit Barrier" "Implicit Barrier|Worksharing Barrier" \
		workshare+closing
	kill "$hog1" "$hog2"
	wait "$hog1" "$hog2" 2>/dev/null
fi

if [ ! -x "$TGT/omp_waits19" ]; then
	skip "clang-19 or LLVM 19's runtime missing: omp_waits19 not built"
else
	# LLVM 19 says which implicit barrier: the loop's is a worksharing one
	scopes clang19 "$TGT/omp_waits19" "Explicit Barrier" "Worksharing Barrier" workshare
	for sc in full basic; do
		O=$SCRATCH/clang19-$sc.out
		got=$(total "clang19-$sc" workshare "Implicit Barrier")
		want=$(prog "$O" closing)
		check "clang19-$sc: the workshare region's Implicit Barrier is its closing barrier's alone, not the loop's ($got s, at most $want s)" \
			at_most "$got" "$want"
	done
fi

if [ ! -x "$TGT/omp_waits_gcc" ] || [ ! -x "$TGT/omp_waits" ]; then
	skip "gcc or LLVM libomp missing: no omplib run"
else
	# libgomp's interface does not say which barrier a call is: libomp calls them all its own
	scopes gcc "$TGT/omp_waits_gcc" "Explicit Barrier|Runtime Barrier" \
		"Implicit Barrier|Worksharing Barrier|Runtime Barrier" workshare+closing --openmp-impl omplib
fi

echo "# skipped: $skipped"
echo "1..$_n"
