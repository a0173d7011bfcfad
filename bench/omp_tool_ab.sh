#!/usr/bin/env bash
# bench/omp_tool_ab.sh A_UPROF B_UPROF [ROUNDS] [REGIONS] [KIND THREADS WAIT SCOPE]: two
# builds of the OMPT tool timed against each other in a real program, for a change to
# lib/instrument (its commit message gives this script's line). Each round runs
# bench/omp_tiny_regions (KIND empty|loop, default empty; THREADS default 2; WAIT
# passive|active, default passive; REGIONS default 20000) traced by A then by B, or B then
# A (alternating: neither always runs on the cache the other left), `uprof collect
# --trace openmp` (SCOPE basic|full, default basic). Timed: the target's own CPU time
# (its getrusage, printed by the program: collect's drain is left out) and the CPU time
# of the whole tree (bench/tools/cpu_of.c). Per round, (B - A) / callbacks; printed: the
# median of the rounds with their min and max, and how many rounds B was the cheaper.
# A difference is resolved only where min and max have one sign: on a loaded machine
# the spread between rounds is wider than most changes (bench/README.md).
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "omp_tool_ab: $*" >&2; exit 1; }
(($# >= 2)) || die "usage: omp_tool_ab.sh A_UPROF B_UPROF [ROUNDS] [REGIONS] [KIND THREADS WAIT SCOPE]"
A=$1 B=$2 ROUNDS=${3:-15} N=${4:-20000} KIND=${5:-empty} T=${6:-2} W=${7:-passive} SCOPE=${8:-basic}
BB=$ROOT/build/bench
TMP=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-omp-ab.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
for u in "$A" "$B"; do "$u" --version >/dev/null 2>&1 || die "$u is missing or broken"; done
mkdir -p "$BB"
gcc -O2 -Wall -Wextra -o "$BB/cpu_of" "$ROOT/bench/tools/cpu_of.c" || die "cpu_of: build failed"
gcc -O2 -Wall -Wextra -shared -fPIC -o "$BB/ompt_count.so" "$ROOT/bench/tools/ompt_count.c" ||
	die "ompt_count.so: build failed"
clang -O2 -g -fopenmp -o "$BB/omp_tiny_regions" "$ROOT/bench/omp_tiny_regions.c" ||
	die "omp_tiny_regions: build failed (clang -fopenmp, LLVM libomp)"
case $W in
active) WENV=(OMP_WAIT_POLICY=active KMP_BLOCKTIME=infinite) ;;
passive) WENV=(OMP_WAIT_POLICY=passive KMP_BLOCKTIME=0) ;;
*) die "WAIT is active or passive, not $W" ;;
esac
SC=()
case $SCOPE in
basic) ;;
full) SC=(--openmp-scope full) ;;
*) die "SCOPE is basic or full, not $SCOPE" ;;
esac
CB=$(env "${WENV[@]}" OMP_TOOL_LIBRARIES="$BB/ompt_count.so" "$BB/omp_tiny_regions" "$KIND" "$T" "$N" 2>&1 >/dev/null |
	sed -n 's/^ompt_count callbacks=\([0-9]*\).*/\1/p')
[[ -n $CB ]] || die "ompt_count gave no count"

# run UPROF: "tree_cpu_ns target_cpu_ns"
run() {
	local line self
	rm -rf "$TMP/s"
	line=$(env "${WENV[@]}" "$BB/cpu_of" "$1" collect --trace openmp "${SC[@]}" -o "$TMP/s" \
		"$BB/omp_tiny_regions" "$KIND" "$T" "$N" 2>"$TMP/err") || die "cpu_of failed"
	[[ ${line##* } == 0 ]] || { cat "$TMP/err" >&2; die "$1: exit ${line##* }"; }
	self=$(sed -n 's/^omp_tiny_regions cpu_ns=//p' "$TMP/err")
	[[ -n $self ]] || die "$1: the program did not say its CPU time"
	echo "${line%% *} $self"
}
stats() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1; if ($1 < 0) neg++ }
	END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	      printf "%.1f (%.1f to %.1f; B cheaper in %d of %d)\n", m, v[1], v[NR], neg, NR }'; }

run "$A" >/dev/null # warm-up: page cache, the runtime's first start
dt="" ds=""
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then rb=$(run "$B"); ra=$(run "$A"); else ra=$(run "$A"); rb=$(run "$B"); fi
	read -r ta sa <<<"$ra"
	read -r tb sb <<<"$rb"
	dt+=" $(awk -v d=$((tb - ta)) -v c="$CB" 'BEGIN { printf "%.1f", d / c }')"
	ds+=" $(awk -v d=$((sb - sa)) -v c="$CB" 'BEGIN { printf "%.1f", d / c }')"
done
echo "omp_tool_ab: $(date -u '+%Y-%m-%d %H:%M UTC'), $KIND $T threads $W, $SCOPE scope, $N regions ($(awk -v c="$CB" -v n="$N" 'BEGIN { printf "%.2f", c / n }') callbacks each), $ROUNDS rounds, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  B - A, target CPU ns per callback: $(stats "$ds")"
echo "  B - A, tree CPU ns per callback:   $(stats "$dt")"
