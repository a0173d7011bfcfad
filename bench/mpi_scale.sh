#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/mpi_scale.sh [-n "64 256 1024"] [-s SEED_JOB] UPROF [BEFORE_UPROF]: the CPU time
# (user + sys) and peak RSS of `uprof report -i JOB` against the number of ranks (issue 29:
# 1024 ranks of ~1000 samples each in <= 10 s CPU and <= 1 GB). The jobs are made by
# bench/tools/make_job.sh: one real Open MPI job of 4 ranks collected once (or SEED_JOB),
# its rank sessions copied into N ranks of their own. Each N is reported by UPROF and, when
# given, BEFORE_UPROF (an older build: the ratio before/after), interleaved, each run once
# per round, ROUNDS rounds (default 2); the lowest CPU of its rounds is kept (noise on a
# shared machine only adds). The report.csv of each is compared: a ratio of two different
# reports would mean nothing. Prints one line per run and the ratios; exits non-zero only
# when a command fails or the reports differ.
set -u
NS="64 256 1024" SEED= ROUNDS=${ROUNDS:-2}
# report.csv sections this branch added, which BEFORE_UPROF does not write
NEW_SECTIONS=${NEW_SECTIONS:-MPI RANK TIMELINE|MPI RANK SAMPLING RATE}
while getopts n:s: o; do
	case $o in
	n) NS=$OPTARG ;;
	s) SEED=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1 || $# == 2)) || { echo "usage: $0 [-n \"N...\"] [-s SEED_JOB] UPROF [BEFORE_UPROF]" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
AFTER=$1 BEFORE=${2:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/mpi_scale.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export PERF_BUILDID_DIR=$T/.debug # the seed's binaries stay out of the user's cache

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# run NAME UPROF JOB: one report; "cpu_s rss_kb wall_s" appended to $T/r.NAME, the CSV kept
run() {
	local name=$1 u=$2 j=$3
	/usr/bin/time -o "$T/t" -f "%U %S %M %e" "$u" report -i "$j" >/dev/null 2>"$T/err" ||
		{ echo "FAILED: $u report -i $j" >&2; tail -3 "$T/err" >&2; exit 1; }
	awk '{ printf "%.2f %d %.2f\n", $1 + $2, $3, $4 }' "$T/t" >>"$T/r.$name"
	# sections a newer uprof adds (NEW_SECTIONS, titles) are left out of the comparison:
	# what both write must be the same
	awk -v titles="$NEW_SECTIONS" 'BEGIN { n = split(titles, t, "|") }
		/^Report Command:/ { next }
		{ for (i = 1; i <= n; i++) if (index($0, t[i]) == 1) skip = 1 }
		skip && /^$/ { skip = 0; next }
		!skip' "$j/report.csv" >"$T/csv.$name"
}
best() { sort -n "$T/r.$1" | head -n1; }
for n in $NS; do
	J=$("$HERE/tools/make_job.sh" "$AFTER" "$T/jobs" "$n" $SEED) || exit 1
	[ -n "$SEED" ] || SEED=$(ls -d "$T"/jobs/seed/uprof-*-HPC_MPI_* | head -n1)
	for r in $(seq 1 "$ROUNDS"); do
		[ -z "$BEFORE" ] || run "before.$n" "$BEFORE" "$J"
		run "after.$n" "$AFTER" "$J"
	done
	samples=$(grep -h '^samples = ' "$J"/rank-*/session.ini | awk '{ s += $3 } END { print s }')
	for w in before after; do
		[ -s "$T/r.$w.$n" ] || continue
		best "$w.$n" | awk -v w="$w" -v n="$n" -v s="$samples" \
			'{ printf "%-6s %5d ranks (%7d samples): cpu %7.2f s (%5.1f ms/rank)  max rss %8d kB  wall %6.2f s\n",
			   w, n, s, $1, $1 * 1000 / n, $2, $3 }'
	done
	if [ -n "$BEFORE" ]; then
		cmp -s "$T/csv.before.$n" "$T/csv.after.$n" ||
			{ echo "report.csv differs before/after at $n ranks" >&2; diff "$T/csv.before.$n" "$T/csv.after.$n" | head >&2; exit 1; }
		paste <(best "before.$n") <(best "after.$n") | awk -v n="$n" \
			'{ printf "ratio  %5d ranks: cpu before/after %.1fx, rss before/after %.2fx (report.csv identical)\n",
			   n, $1 / ($4 > 0 ? $4 : 0.01), $2 / $5 }'
	fi
	rm -rf "$J"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
