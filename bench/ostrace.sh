#!/usr/bin/env bash
# --trace os's cost and counts against perf (issue 30, must show 4), on a syscall-heavy
# workload (N getppid calls) and a lock-heavy one (two threads on one mutex), in
# alternating rounds so that load drifts hit every tool alike: the wall time of bare,
# uprof collect --trace os -g (fp stacks), uprof collect --trace os (dwarf stacks, the
# default), perf trace -s and perf record -e sched:sched_switch -g; ratios to bare in the
# same run (medians). Counts (first round): the workload's call (getppid; futex for the
# lock one) in uprof's SYSTEM CALL SUMMARY and in perf trace -s's summary, against the N
# made; records lost by uprof.
#   bench/ostrace.sh [quick]    (root, tracefs mounted)
set -u
UPROF=${UPROF:-$PWD/build/bin/uprof}
ROUNDS=${ROUNDS:-5}
N_SYS=${N_SYS:-200000}
N_LOCK=${N_LOCK:-20000}
[ "${1:-}" = quick ] && ROUNDS=3 N_SYS=100000 N_LOCK=10000
OUT=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-bench-ostrace.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
gcc -O2 -g -fno-omit-frame-pointer -o "$OUT/work" bench/ostrace_work.c -lpthread || exit 1
median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
# time one command (wall seconds) into $OUT/<mode>.<wl>
timed() {
	local mode=$1 wl=$2; shift 2
	local t0 t1
	t0=$(now)
	"$@" >/dev/null 2>>"$OUT/$mode.$wl.err"
	t1=$(now)
	echo "$t1 - $t0" | bc -l >>"$OUT/$mode.$wl"
}
for wl in sys lock; do
	n=$N_SYS call=getppid; [ $wl = lock ] && n=$N_LOCK call=futex
	for r in $(seq "$ROUNDS"); do
		rm -rf "$OUT/s"; mkdir -p "$OUT/s"
		timed bare $wl "$OUT/work" $wl "$n"
		timed uprof_fp $wl "$UPROF" collect -q --trace os -g -o "$OUT/s/fp" "$OUT/work" $wl "$n"
		timed uprof_dwarf $wl "$UPROF" collect -q --trace os -o "$OUT/s/dw" "$OUT/work" $wl "$n"
		timed perf_trace $wl perf trace -s -o "$OUT/pt.$wl.txt" -- "$OUT/work" $wl "$n"
		timed perf_sched $wl perf record -q -e sched:sched_switch -g -o "$OUT/ps.data" -- "$OUT/work" $wl "$n"
		if [ "$r" = 1 ]; then # counts of the first round
			for m in fp dw; do
				S=$(ls -d "$OUT/s/$m"/uprof-*)
				"$UPROF" report -i "$S" >/dev/null 2>&1
				echo "$m $(awk -F, -v c="\"$call\"" '$2 == c { print $3 }' "$S/report.csv") lost $(sed -n 's/^lost_samples = //p' "$S/session.ini")" \
					>>"$OUT/counts.$wl"
			done
			echo "perf_trace $(awk -v c="$call" '$1 == c { s += $2 } END { print s + 0 }' "$OUT/pt.$wl.txt")" >>"$OUT/counts.$wl"
		fi
	done
	b=$(median <"$OUT/bare.$wl")
	printf '%s (n=%s, %s rounds): bare %.3f s\n' "$wl" "$n" "$ROUNDS" "$b"
	for mode in uprof_fp uprof_dwarf perf_trace perf_sched; do
		m=$(median <"$OUT/$mode.$wl")
		printf '  %-12s %.3f s  x%.2f\n' "$mode" "$m" "$(echo "$m / $b" | bc -l)"
	done
	sed "s/^/  $call calls: /" "$OUT/counts.$wl"
done
