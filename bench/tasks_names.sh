#!/usr/bin/env bash
# `uprof report` time against the number of task names in a .tasks file (issue 12 item 12:
# names were looked up by a scan of every string, so report time grew as records x names).
# One real session (spin 1 40 under collect), then for each name count a synthetic
# instrument/<pid>.tasks of RECORDS records written by lib/session's own writer
# (bench/tasks_gen.c), and `uprof report` timed in interleaved rounds: medians and minimums
# of wall and CPU time. Goal: 500k names in under 2x the time of 2 names.
#   bench/tasks_names.sh [-n RECORDS] [-r ROUNDS] [-N "NAMES..."] [UPROF]
set -u
RECORDS=4000000 ROUNDS=3 COUNTS="2 500000"
while getopts n:r:N: o; do
	case $o in
	n) RECORDS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	N) COUNTS=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
UPROF=${1:-$ROOT/build/bin/uprof}
LIB=$(dirname "$(dirname "$UPROF")")/lib/libuprof_session.a
T=$(mktemp -d /tmp/uprof-bench-tasks.XXXXXX)
trap 'rm -rf "$T"' EXIT
gcc -O2 -g -std=gnu11 -I"$ROOT/include" -I"$ROOT/lib" -D_GNU_SOURCE "$ROOT/bench/tasks_gen.c" \
	"$LIB" -o "$T/tasks_gen" || exit 1
gcc -O2 -g -pthread "$ROOT/bench/workloads/spin.c" -o "$T/spin" || exit 1
"$UPROF" collect -o "$T/c" "$T/spin" 1 40 >/dev/null 2>&1 || exit 1
S=$(ls -d "$T"/c/uprof-* | head -n1)
ini() { sed -n "s/^$1 = //p" "$S/session.ini" | head -n1; }
PID=$(ini pids | cut -d, -f1 | tr -d ' ') START=$(ini start_mono_ns) END=$(ini end_mono_ns)
echo "session: $(ini samples) samples of pid $PID over $(( (END - START) / 1000000 )) ms; $RECORDS task records"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $COUNTS; do # one session copy per name count, generated once
	cp -r "$S" "$T/s$n"
	rm -rf "$T/s$n/instrument"
	"$T/tasks_gen" "$T/s$n" "$PID" "$PID" "$RECORDS" "$n" "$START" "$END" || exit 1
	echo "names $n: $(du -h "$T/s$n/instrument/$PID.tasks" | cut -f1) .tasks file"
done
for ((r = -1; r < ROUNDS; r++)); do # round -1 warms the page cache, not counted
	for n in $COUNTS; do
		/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$UPROF" report -i "$T/s$n" \
			--report-output "$T/r$n.csv" >/dev/null 2>"$T/err$n" || { cat "$T/err$n"; exit 1; }
		((r >= 0)) && awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/t" >>"$T/n$n"
	done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf "| names | task records read | instances | wall med / min (s) | cpu med (s) | peak RSS (MB) |\n|---:|---:|---:|---:|---:|---:|\n"
for n in $COUNTS; do
	w=$(cut -d' ' -f1 "$T/n$n" | med) wmin=$(cut -d' ' -f1 "$T/n$n" | sort -n | head -n1)
	c=$(cut -d' ' -f2 "$T/n$n" | med) m=$(cut -d' ' -f3 "$T/n$n" | sort -n | tail -n1)
	rec=$(sed -n 's/^Task Records:,"\(.*\)"/\1/p' "$T/r$n.csv")
	inst=$(sed -n 's/^Task Instances:,"\(.*\)"/\1/p' "$T/r$n.csv")
	printf "| %s | %s | %s | %s / %s | %s | %d |\n" "$n" "$rec" "$inst" "$w" "$wmin" "$c" $((m / 1024))
	echo "$w" >"$T/w$n"
done
first=${COUNTS%% *} last=${COUNTS##* }
ratio=$(awk -v a="$(cat "$T/w$last")" -v b="$(cat "$T/w$first")" 'BEGIN { printf "%.2f", a / b }')
goal=$(awk -v r="$ratio" 'BEGIN { print (r < 2) ? "met" : "MISSED" }')
echo "$last names / $first names (wall medians): ${ratio}x; goal < 2x: $goal"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
