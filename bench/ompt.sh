#!/usr/bin/env bash
# The OMPT tool's cost (issue 13, must show 6; docs/DESIGN.md §7: <= 50 ns per callback):
#  1. bench/ompt_cost.c: ns of CPU per callback in the target, the tool driven as a
#     runtime drives it (6 callbacks per region), with room in the ring and with it full;
#     then 2 threads at once, on the shared ring and on a lane each (control page 2.6);
#  2. a program of 100,000 tiny parallel regions (2 threads; tests/targets/omp_regions.c
#     tiny) bare, under `uprof collect` and under `uprof collect --trace openmp`, side by
#     side: the median wall time of RUNS runs each.
# Needs clang and LLVM libomp (the program) and a built tree (make).
#   bench/ompt.sh [RUNS]
set -u
UPROF=${UPROF:-build/bin/uprof}
LIB=build/lib/libAMDProfileController.so
RUNS=${1:-5}
OUT=$(mktemp -d /tmp/uprof-ompt-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
mkdir -p build/bench
gcc -O2 -o build/bench/ompt_cost bench/ompt_cost.c -ldl -pthread || exit 1
clang -O2 -g -fopenmp -o build/bench/omp_regions tests/targets/omp_regions.c || exit 1

echo "## OMPT tool: CPU ns per callback in the target (goal <= 50)"
for i in 1 2 3; do build/bench/ompt_cost "$LIB" 1000000; done
echo
echo "## 2 threads writing at once: the shared task ring (UPROF_CTL_LANES=0) against a lane each (8)"
for i in 1 2 3; do for l in 0 8; do UPROF_CTL_LANES=$l build/bench/ompt_cost "$LIB" 0 2; done; done

# median wall seconds of "$@" over RUNS runs
median() {
	for ((i = 0; i < RUNS; i++)); do
		local t0 t1
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s.%N)
		echo "$t1 - $t0" | bc
	done | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
N=100000
bare=$(median build/bench/omp_regions tiny $N)
plain=$(median "$UPROF" collect -o "$OUT/p" build/bench/omp_regions tiny $N)
traced=$(median "$UPROF" collect --trace openmp -o "$OUT/t" build/bench/omp_regions tiny $N)
echo
echo "## $N tiny parallel regions (2 threads), median of $RUNS runs, wall seconds"
echo "| run | seconds | per region |"
echo "|---|---|---|"
for row in "bare:$bare" "uprof collect:$plain" "uprof collect --trace openmp:$traced"; do
	echo "| ${row%%:*} | ${row##*:} | $(echo "${row##*:} * 1000000 / $N" | bc -l | xargs printf '%.2f us') |"
done
echo "(--trace openmp over uprof collect: $(echo "($traced - $plain) * 1000000 / $N" | bc -l | xargs printf '%.2f') us per region)"
