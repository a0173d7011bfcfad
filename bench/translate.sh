#!/usr/bin/env bash
# Issue 16, Must show 2 (second half): `uprof translate` then `uprof report` against
# `uprof report` alone, side by side on one large dwarf session, in interleaved rounds
# (the order of the two alternates). Per command: medians of wall time and of CPU time
# (user + sys), peak RSS; the ratios of the medians. Every round checks that the two
# report.csv files are byte-identical (a faster report that says something else is no win).
#   bench/translate.sh [-r ROUNDS] [-s SESSION] UPROF
# Without -s, collects one with bench/tools/make_session.sh: uprof collect --call-graph dwarf
# of make -j2 (three builds, -B) of a tree of 16 C files: many short processes, deep stacks.
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
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_translate.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -n "$SES" ] || SES=$("$(dirname "$0")/tools/make_session.sh" "$U" "$T") || exit 1
echo "session: $SES ($(sed -n 's/^samples = //p' "$SES/session.ini") samples, $(du -h "$SES/samples.data" | cut -f1), call graph $(awk '/^\[/ { sec = $0 } sec == "[callgraph]" && $1 == "mode" { print $3 }' "$SES/session.ini"))"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
saved=""
if [ -e "$SES/translated.bin" ]; then # the session's own file is put back at the end
	saved=$T/translated.bin.saved
	mv "$SES/translated.bin" "$saved"
fi
# timed NAME CMD...: one timed run, "wall cpu rss_kb" appended to $T/NAME
timed() {
	local name=$1
	shift
	/usr/bin/time -o "$T/t" -f "%e %U %S %M" "$@" >/dev/null 2>"$T/err" || {
		echo "failed: $* ($(tail -1 "$T/err"))" >&2
		exit 1
	}
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/t" >>"$T/$name"
}
alone() {
	rm -f "$SES/translated.bin"
	timed report_alone "$U" report -q -i "$SES" --report-output "$T/r.csv"
	mv "$T/r.csv" "$T/alone.csv" # one path for both: the Report Command line is the same
}
translated() {
	rm -f "$SES/translated.bin"
	timed translate "$U" translate -q -i "$SES"
	tsize=$(du -h "$SES/translated.bin" | cut -f1)
	timed report_after "$U" report -q -i "$SES" --report-output "$T/r.csv"
	mv "$T/r.csv" "$T/after.csv"
	grep -q translated.bin "$T/err" && { echo "report did not use translated.bin: $(cat "$T/err")" >&2; exit 1; }
}
diffs=0 tsize=""
for ((r = -1; r < ROUNDS; r++)); do # round -1 warms the page cache, not counted
	if ((r % 2)); then alone; translated; else translated; alone; fi
	cmp -s "$T/alone.csv" "$T/after.csv" || diffs=$((diffs + 1))
	if ((r < 0)); then : >"$T/report_alone"; : >"$T/translate"; : >"$T/report_after"; fi
done
paste -d' ' "$T/translate" "$T/report_after" | awk '{ printf "%.2f %.2f %d\n", $1 + $4, $2 + $5, ($3 > $6 ? $3 : $6) }' >"$T/both"
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bw=$(cut -d' ' -f1 "$T/report_alone" | med) bc=$(cut -d' ' -f2 "$T/report_alone" | med)
for k in report_alone translate report_after both; do
	w=$(cut -d' ' -f1 "$T/$k" | med) c=$(cut -d' ' -f2 "$T/$k" | med) m=$(cut -d' ' -f3 "$T/$k" | sort -n | tail -1)
	label=$k
	[ $k = both ] && label="translate + report_after"
	awk -v p="$label" -v w="$w" -v c="$c" -v m="$m" -v bw="$bw" -v bc="$bc" 'BEGIN {
		printf "%-26s wall %.3f s (%.3f x report alone)  cpu %.3f s (%.3f x)  max rss %d kB\n",
			p, w, w / bw, c, c / bc, m }'
done
echo "translated.bin: $tsize; report.csv identical in $((ROUNDS + 1 - diffs)) of $((ROUNDS + 1)) rounds"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS"
rm -f "$SES/translated.bin"
[ -n "$saved" ] && mv "$saved" "$SES/translated.bin"
exit $((diffs > 0))
