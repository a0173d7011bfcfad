#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/report_memory.sh [-n "N1 N2"] UPROF [OTHER_UPROF...]: report's peak RSS and time
# against the number of samples (issue 27: memory bounded by distinct keys, not samples;
# goal: RSS at the largest N <= 2x RSS at the smallest). Synthetic sessions
# (bench/tools/gen_session.c: one process of 4 threads and a late one, a binary of 300
# functions, -g call chains 2..6 deep, two CPU rings written in turns as collect writes
# them) of 1 M and 10 M samples (100 MB and 1 GB of samples.data under $TMPDIR), each
# reported by every UPROF given: `report` alone and `report --export all` (folded stacks,
# flame graph, trace.json); then `perf report --stdio` on the same samples.data (PERF=none
# leaves perf out: it takes minutes at 10 M). Needs gcc and a built tree (build/lib).
# Prints one line per run and the ratios; exits non-zero only when a command fails.
set -u
NS="1000000 10000000"
while getopts n: o; do
	case $o in
	n) NS=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || { echo "usage: $0 [-n \"N1 N2\"] UPROF [OTHER_UPROF...]" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BUILD=${BUILD:-$ROOT/build}
PERF=${PERF:-perf}
T=$(mktemp -d "${TMPDIR:-/tmp}/report_memory.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# the target: 300 functions, so that the tables have a few hundred rows
for i in $(seq 0 299); do
	printf '__attribute__((noinline)) int fn_%03d(int x) { volatile int v = x; for (int k = 0; k < %d; k++) v = v * 31 + k; return v; }\n' \
		"$i" $((i % 7 + 1))
done >"$T/t.c"
{
	echo 'int main(int c, char **v) { int s = 0; (void)v; for (int i = 0; i < c; i++) {'
	for i in $(seq 0 299); do printf ' s += fn_%03d(i);\n' "$i"; done
	echo '} return s & 1; }'
} >>"$T/t.c"
gcc -O1 -g -fno-omit-frame-pointer -o "$T/gen_target" "$T/t.c" || exit 1
nm "$T/gen_target" | awk '$2 == "T" && $3 ~ /^fn_/ { print $1 }' >"$T/funcs"
gcc -O2 -I"$ROOT/include" -I"$ROOT/lib" -I"$ROOT" -D_GNU_SOURCE -o "$T/gen_session" \
	"$HERE/tools/gen_session.c" "$BUILD/lib/libuprof_session.a" "$BUILD/lib/libuprof_pmc.a" \
	"$BUILD/lib/libuprof_util.a" -lm || exit 1

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# run NAME CMD...: one timed run; "wall cpu rss_kb" into $T/r.NAME, and a line
run() {
	local name=$1
	shift
	/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$@" >/dev/null 2>"$T/err" ||
		{ echo "FAILED: $*" >&2; tail -3 "$T/err" >&2; exit 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/t" >"$T/r.$name"
	awk -v n="$name" '{ printf "%-34s wall %7.2f s  cpu %7.2f s  max rss %8d kB\n", n, $1, $2, $3 }' \
		"$T/r.$name"
}
first= last=
for n in $NS; do
	"$T/gen_session" "$T/s$n" "$T/gen_target" "$n" <"$T/funcs" || exit 1
	echo "session of $n samples: $(du -h "$T/s$n/samples.data" | cut -f1) of samples.data"
	k=0
	for u in "$@"; do
		run "uprof$k report $n" "$u" report -i "$T/s$n" --report-output "$T/r.csv"
		mkdir -p "$T/x"
		run "uprof$k report --export all $n" "$u" report -i "$T/s$n" --report-output "$T/r.csv" \
			--export all --export-dir "$T/x"
		rm -rf "$T/x"
		k=$((k + 1))
	done
	[ "$PERF" = none ] || run "perf report $n" "$PERF" report --stdio -i "$T/s$n/samples.data"
	rm -rf "$T/s$n"
	[ -n "$first" ] || first=$n
	last=$n
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# ratio NAME: max rss at the largest N over the smallest
ratio() {
	local a b
	a=$(cut -d' ' -f3 "$T/r.$1 $first") b=$(cut -d' ' -f3 "$T/r.$1 $last")
	awk -v n="$1" -v a="$a" -v b="$b" -v f="$first" -v l="$last" 'BEGIN {
		printf "%-28s rss %d kB at %d, %d kB at %d: %.2fx (goal <= 2x: %s)\n",
			n, a, f, b, l, b / a, b <= 2 * a ? "met" : "MISSED" }'
}
if [ "$first" != "$last" ]; then
	k=0
	for u in "$@"; do
		ratio "uprof$k report"
		ratio "uprof$k report --export all"
		k=$((k + 1))
	done
	[ "$PERF" = none ] || ratio "perf report"
fi
