#!/usr/bin/env bash
# The tool API's cost (issue 15, Must show 5): `uprof report` of one session without a
# tool and with a no-op per-sample tool (bench/tools/noop.c), side by side in interleaved
# rounds; medians of wall and CPU time (user + sys, of uprof and its tool's child),
# samples per second, and what the tool adds per sample.
#   bench/tool.sh [-r ROUNDS] [-s SESSION] UPROF
# Without -s, collects the session as report_c.sh does: uprof collect --timer-interval 0.1
# -m 512 spin 2 650 (~180k samples here).
set -u
ROUNDS=10 SES=""
while getopts r:s: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SES=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1)) || { echo "usage: $0 [-r ROUNDS] [-s SESSION] UPROF" >&2; exit 2; }
UPROF=$1 HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/bench_tool.XXXXXX)
trap 'rm -rf "$T"' EXIT
gcc -O2 -shared -fPIC -I"$HERE/../include" -o "$T/noop.so" "$HERE/tools/noop.c" || exit 1
if [ -z "$SES" ]; then
	gcc -O2 -g -pthread "$HERE/workloads/spin.c" -o "$T/spin" || exit 1
	"$UPROF" collect --timer-interval 0.1 -m 512 -o "$T/c" "$T/spin" 2 650 >/dev/null 2>&1 || exit 1
	SES=$(ls -d "$T"/c/uprof-* | head -n1)
fi
"$UPROF" report -i "$SES" --report-output "$T/r.csv" >/dev/null 2>"$T/err" || exit 1
samples=$(sed -n 's/^Samples:,"\([0-9]*\)"$/\1/p' "$T/r.csv")
echo "session: $SES ($samples samples in the report, $(du -h "$SES/samples.data" | cut -f1))"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
names=("no tool" "no-op per-sample tool")
run() { # run INDEX: one timed run, "wall cpu rss_kb" appended to $T/INDEX
	local extra=()
	(($1 == 1)) && extra=(--tool "$T/noop.so")
	/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$UPROF" report -i "$SES" \
		--report-output "$T/r$1.csv" "${extra[@]}" >/dev/null 2>&1 || echo "# run $1 failed" >&2
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/t" >>"$T/$1"
}
for ((r = -1; r < ROUNDS; r++)); do # round -1 warms the page cache, not counted
	for ((k = 0; k < 2; k++)); do
		i=$(((r + 1 + k) % 2))
		run "$i"
		((r < 0)) && : >"$T/$i"
	done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
w0=$(cut -d' ' -f1 "$T/0" | med) c0=$(cut -d' ' -f2 "$T/0" | med)
for ((k = 0; k < 2; k++)); do
	w=$(cut -d' ' -f1 "$T/$k" | med) c=$(cut -d' ' -f2 "$T/$k" | med) m=$(cut -d' ' -f3 "$T/$k" | sort -n | tail -1)
	awk -v p="${names[$k]}" -v w="$w" -v c="$c" -v m="$m" -v n="$samples" -v w0="$w0" -v c0="$c0" 'BEGIN {
		printf "%-24s wall %.3f s (%.3f x)  cpu %.3f s (%.3f x)  %.2f M samples/s (wall)  max rss %d kB\n",
			p, w, w / w0, c, c / c0, n / w / 1e6, m }'
done
awk -v w="$(cut -d' ' -f1 "$T/1" | med)" -v c="$(cut -d' ' -f2 "$T/1" | med)" -v w0="$w0" -v c0="$c0" -v n="$samples" 'BEGIN {
	printf "the tool adds %.0f ns of wall time and %.0f ns of CPU time per sample\n",
		(w - w0) / n * 1e9, (c - c0) / n * 1e9 }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS"
