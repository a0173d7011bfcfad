#!/usr/bin/env bash
# Just bench (c): `uprof report` against `perf report --stdio` on one samples.data, in
# interleaved rounds; medians of wall time and of CPU time (user + sys, which another job
# on the machine disturbs less than wall), the ratio of the medians, and peak RSS.
#   bench/report_c.sh [-r ROUNDS] [-s SESSION | -m] UPROF [OTHER_UPROF...]
# Without -s, collects the session as run.sh does: uprof collect --timer-interval 0.1
# -m 512 spin 2 650 (~180k samples here); with -m, a large multi-process dwarf session
# (bench/tools/make_session.sh: make -j2 under --call-graph dwarf), for issue 11's "peak
# RSS at most perf report's, >= 5x faster". Each UPROF is timed beside perf.
set -u
ROUNDS=10 SES="" MAKE_SES=0
while getopts r:s:m o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SES=$OPTARG ;;
	m) MAKE_SES=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || { echo "usage: $0 [-r ROUNDS] [-s SESSION | -m] UPROF [OTHER_UPROF...]" >&2; exit 2; }
PERF=${PERF:-perf}
T=$(mktemp -d "${TMPDIR:-/tmp}/report_c.XXXXXX")
trap 'rm -rf "$T"' EXIT
if [ "$MAKE_SES" = 1 ]; then
	SES=$("$(dirname "$0")/tools/make_session.sh" "$1" "$T") || exit 1
elif [ -z "$SES" ]; then
	gcc -O2 -g -pthread "$(dirname "$0")/workloads/spin.c" -o "$T/spin" || exit 1
	"$1" collect --timer-interval 0.1 -m 512 -o "$T/c" "$T/spin" 2 650 >/dev/null 2>&1 || exit 1
	SES=$(ls -d "$T"/c/uprof-* | head -n1)
fi
echo "session: $SES ($(sed -n 's/^samples = //p' "$SES/session.ini") samples, $(du -h "$SES/samples.data" | cut -f1))"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
progs=("$@" perf)
run() { # run INDEX: one timed run, "wall cpu rss_kb" appended to $T/INDEX
	local out=$T/$1 p=${progs[$1]}
	if [ "$p" = perf ]; then
		/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$PERF" report --stdio -i "$SES/samples.data" >/dev/null 2>&1
	else
		/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$p" report -i "$SES" --report-output "$T/r.csv" >/dev/null 2>&1
	fi
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/t" >>"$out"
}
n=${#progs[@]}
for ((r = -1; r < ROUNDS; r++)); do # round -1 warms the page cache, not counted
	for ((k = 0; k < n; k++)); do
		i=$(((r + 1 + k) % n))
		run "$i"
		((r < 0)) && : >"$T/$i"
	done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(cut -d' ' -f1 "$T/$((n - 1))" | med) pc=$(cut -d' ' -f2 "$T/$((n - 1))" | med)
for ((k = 0; k < n; k++)); do
	w=$(cut -d' ' -f1 "$T/$k" | med) c=$(cut -d' ' -f2 "$T/$k" | med) m=$(cut -d' ' -f3 "$T/$k" | sort -n | tail -1)
	awk -v p="${progs[$k]}" -v w="$w" -v c="$c" -v m="$m" -v pw="$pw" -v pc="$pc" 'BEGIN {
		printf "%-40s wall %.3f s (%.3f x perf)  cpu %.3f s (%.3f x perf)  max rss %d kB\n",
			p, w, w / pw, c, c / pc, m }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS"
