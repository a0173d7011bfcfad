#!/usr/bin/env bash
# bench/tool_stream.sh JOBDIR [ROUNDS]: what a tool reading an mpi=full job's MPI events
# costs beside the job's report alone, and beside --export perfetto (which reads the
# ranks' whole event files): CPU (user + sys, GNU time) and peak RSS of each, medians over
# interleaved rounds (the order rotated each round, so that load drifts hit all three),
# as ratios to the report alone. The tool is tests/tool/mpiranks.c (UPROF_TOOL, default
# build/targets/tools/mpiranks.so), which visits every MPI call of every rank. A job:
#   mpirun -np 4 uprof collect --trace mpi=full -o OUT build/targets/mpi_trace.openmpi 0 100000
set -u
export LC_ALL=C
JOB=${1:?usage: bench/tool_stream.sh JOBDIR [ROUNDS]}
ROUNDS=${2:-5}
UPROF=${UPROF:-$PWD/build/bin/uprof}
TOOL=${UPROF_TOOL:-$PWD/build/targets/tools/mpiranks.so}
TMP=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-tool-stream.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
[ -r "$JOB/job.ini" ] || { echo "tool_stream: $JOB is no job directory (job.ini)" >&2; exit 1; }
[ -r "$TOOL" ] || { echo "tool_stream: no tool $TOOL (make builds it)" >&2; exit 1; }

# one VARIANT ARGS...: its CPU seconds and KB into TMP/VARIANT.{cpu,rss}
one() {
	local v=$1; shift
	/usr/bin/time -f '%U %S %M' -o "$TMP/t" "$UPROF" report -i "$JOB" "$@" >/dev/null 2>"$TMP/$v.err" ||
		{ echo "tool_stream: $v failed: $(head -1 "$TMP/$v.err")" >&2; exit 1; }
	awk '{ printf "%.3f\n", $1 + $2 }' "$TMP/t" >>"$TMP/$v.cpu"
	awk '{ print $3 }' "$TMP/t" >>"$TMP/$v.rss"
}
alone() { one alone; }
tool() { one tool --tool "$TOOL"; }
perfetto() { one perfetto --export perfetto; }
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
order=(alone tool perfetto)
for ((r = 0; r < ROUNDS; r++)); do
	for ((k = 0; k < 3; k++)); do "${order[(r + k) % 3]}"; done
done
events=$(find "$JOB" -name '*.mpiev' -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
echo "tool_stream: $(date -u '+%Y-%m-%d %H:%M UTC'), $JOB ($events bytes of .mpiev), $ROUNDS rounds, load $(cut -d' ' -f1 /proc/loadavg)"
echo "| variant | CPU s (median) | peak RSS MB (median) | CPU / report alone |"
echo "|---|---:|---:|---:|"
a=$(med "$TMP/alone.cpu")
for v in alone tool perfetto; do
	c=$(med "$TMP/$v.cpu") m=$(med "$TMP/$v.rss")
	awk -v v="$v" -v c="$c" -v m="$m" -v a="$a" 'BEGIN { printf "| %s | %.2f | %.1f | %s |\n", v, c, m / 1024, (a > 0 ? sprintf("%.2fx", c / a) : "-") }'
done
