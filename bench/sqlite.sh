#!/usr/bin/env bash
# Issue 32, Must show 4: `uprof report --export sqlite` against perf's export-to-sqlite.py
# on the same samples.data, in interleaved rounds (the order alternates). Per round: the
# wall and CPU time (user + sys) of report alone, of report --export sqlite, and of perf
# script -s export-to-sqlite.py (its default columns, with call chains); the export's own
# cost is (report with export - report alone). Rows/s = the database's sample rows /
# time, medians over the rounds; every round checks both databases hold the same number
# of samples.
#   bench/sqlite.sh [-r ROUNDS] [-s SESSION] UPROF
# Without -s, collects one: uprof collect -g of build/targets/callgraph_fp for 20 s of CPU
# at the default 1 ms timer (about 20,000 samples with stacks).
set -u
ROUNDS=5 SES=""
while getopts r:s: o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) SES=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1)) || { echo "usage: $0 [-r ROUNDS] [-s SESSION] UPROF" >&2; exit 2; }
U=$1
PERF_SQL=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
[ -r "$PERF_SQL" ] || { echo "perf's $PERF_SQL is missing" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_sqlite.XXXXXX")
trap 'rm -rf "$T"' EXIT
if [ -z "$SES" ]; then
	"$U" collect -g -o "$T/s" "$(dirname "$0")/../build/targets/callgraph_fp" 20000 >/dev/null 2>&1
	SES=$(ls -d "$T"/s/uprof-* | head -1)
fi
echo "session: $SES ($(sed -n 's/^samples = //p' "$SES/session.ini") samples, $(du -h "$SES/samples.data" | cut -f1))"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# timed NAME CMD...: "wall cpu" appended to $T/NAME
timed() {
	local name=$1
	shift
	/usr/bin/time -o "$T/t" -f "%e %U %S" "$@" >/dev/null 2>"$T/err" || {
		echo "failed: $* ($(tail -1 "$T/err"))" >&2
		exit 1
	}
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$T/t" >>"$T/$name"
}
perf_export() {
	rm -f "$T/perf.db"
	(cd "$T" && timed perf perf script -i "$SES/samples.data" -s "$PERF_SQL" "$T/perf.db" all calls callchains)
}
for ((i = 0; i < ROUNDS; i++)); do
	if ((i % 2)); then
		perf_export
		timed report "$U" report -i "$SES" -q --export-dir "$T/x"
		timed export "$U" report -i "$SES" -q --export sqlite --export-dir "$T/x"
	else
		timed export "$U" report -i "$SES" -q --export sqlite --export-dir "$T/x"
		timed report "$U" report -i "$SES" -q --export-dir "$T/x"
		perf_export
	fi
	a=$(sqlite3 "$T/x/report.db" 'select count(*) from samples where id > 0')
	b=$(sqlite3 "$T/perf.db" 'select count(*) from samples where id > 0')
	echo "round $((i + 1)): $a sample rows (uprof), $b (perf)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rows=$(sqlite3 "$T/x/report.db" 'select count(*) from samples where id > 0')
for k in report export perf; do
	eval "${k}_wall=\$(cut -d' ' -f1 \"\$T/$k\" | med)"
	eval "${k}_cpu=\$(cut -d' ' -f2 \"\$T/$k\" | med)"
done
awk -v rows="$rows" -v rw="$report_wall" -v rc="$report_cpu" -v ew="$export_wall" \
	-v ec="$export_cpu" -v pw="$perf_wall" -v pc="$perf_cpu" 'BEGIN {
	printf "| measure (median of rounds) | uprof report | uprof report --export sqlite | export alone | perf export-to-sqlite.py |\n"
	printf "|---|---:|---:|---:|---:|\n"
	printf "| wall s | %.2f | %.2f | %.2f | %.2f |\n", rw, ew, ew - rw, pw
	printf "| CPU s | %.2f | %.2f | %.2f | %.2f |\n", rc, ec, ec - rc, pc
	printf "| sample rows per CPU s (whole command) | | %.0f | | %.0f |\n", rows / ec, rows / pc
	printf "perf / uprof (whole commands): wall %.1fx, CPU %.1fx; rows: %d\n", pw / ew, pc / ec, rows
}'
