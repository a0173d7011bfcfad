#!/usr/bin/env bash
# bench/job_g.sh JOBDIR BASE_UPROF [ROUNDS]: what a -g job's report costs, this build's
# uprof (UPROF, default build/bin/uprof) beside another's (BASE_UPROF: a build before the
# change), in interleaved rounds (the order swapped each round, so that load drifts hit
# both): CPU (user + sys, GNU time) and peak RSS, the median of each, their ratio, and
# whether the two report.csv files are byte-identical, bar the job's "Frameless Leaf
# Callers Recovered" line, which builds before lib/unwind/unwind_share.c do not write
# (tests/e2e/mpi_sites.sh checks it against the ranks' own reports). A job to give it:
#   mpirun -np 4 uprof collect --mpi --trace mpi -g -o OUT build/targets/mpi_spin.openmpi 300
set -u
export LC_ALL=C
JOB=${1:?usage: bench/job_g.sh JOBDIR BASE_UPROF [ROUNDS]}
BASE=${2:?usage: bench/job_g.sh JOBDIR BASE_UPROF [ROUNDS]}
ROUNDS=${3:-5}
UPROF=${UPROF:-$PWD/build/bin/uprof}
TMP=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-job-g.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
[ -r "$JOB/job.ini" ] || { echo "job_g: $JOB is no job directory (job.ini)" >&2; exit 1; }

# one VARIANT BIN: its CPU seconds and KB into TMP/VARIANT.{cpu,rss}, its report.csv kept
one() {
	/usr/bin/time -f '%U %S %M' -o "$TMP/t" "$2" report -i "$JOB" >/dev/null 2>&1 ||
		{ echo "job_g: $2 report failed" >&2; exit 1; }
	awk '{ printf "%.3f\n", $1 + $2 }' "$TMP/t" >>"$TMP/$1.cpu"
	awk '{ print $3 }' "$TMP/t" >>"$TMP/$1.rss"
	cp "$JOB/report.csv" "$TMP/$1.csv"
}
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then one base "$BASE"; one this "$UPROF"; else one this "$UPROF"; one base "$BASE"; fi
done
bc=$(med "$TMP/base.cpu") tc=$(med "$TMP/this.cpu")
echo "job_g: $(date -u '+%Y-%m-%d %H:%M UTC'), $JOB, $ROUNDS rounds, load $(cut -d' ' -f1 /proc/loadavg)"
echo "| build | CPU s (median) | peak RSS KB (median) |"
echo "|---|---:|---:|"
echo "| base ($BASE) | $bc | $(med "$TMP/base.rss") |"
echo "| this ($UPROF) | $tc | $(med "$TMP/this.rss") |"
awk -v b="$bc" -v t="$tc" 'BEGIN { if (t > 0) printf "CPU base/this: %.2fx\n", b / t }'
for v in base this; do grep -v '^Frameless Leaf Callers Recovered' "$TMP/$v.csv" >"$TMP/$v.cmp"; done
if cmp -s "$TMP/base.cmp" "$TMP/this.cmp"; then echo "report.csv: byte-identical (bar the leaf line)"
else echo "report.csv: DIFFERS"; diff "$TMP/base.cmp" "$TMP/this.cmp" | head -20; fi
