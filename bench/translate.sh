#!/usr/bin/env bash
# Issue 16, Must show 2 (second half): `uprof translate` then `uprof report` against
# `uprof report` alone, side by side on one large dwarf session, in interleaved rounds
# (the order of the two alternates). Per command: medians of wall time and of CPU time
# (user + sys), peak RSS; the ratios of the medians. Every round checks that the two
# report.csv files are byte-identical (a faster report that says something else is no win).
#   bench/translate.sh [-r ROUNDS] [-s SESSION] UPROF
# Without -s, collects one: uprof collect --call-graph dwarf of make -j2 (three builds, -B)
# of a tree of 16 C files: many short processes (make, sh, gcc, cc1, as, ld), deep stacks.
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
if [ -z "$SES" ]; then
	mkdir -p "$T/tree"
	for i in $(seq 1 16); do
		cat >"$T/tree/f$i.c" <<EOF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct s$i { int a[64]; char name[32]; double d[16]; };
static int cmp$i(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }
int work$i(int n)
{
	struct s$i v;
	for (int k = 0; k < 64; k++)
		v.a[k] = (k * 7919 + n) % 101;
	qsort(v.a, 64, sizeof(int), cmp$i);
	for (int k = 0; k < 16; k++)
		v.d[k] = v.a[k] * 0.5 + n;
	snprintf(v.name, sizeof(v.name), "w%d %.1f", v.a[n % 64], v.d[n % 16]);
	return (int)strlen(v.name);
}
EOF
	done
	printf 'all: %s\n%%.o: %%.c\n\tgcc -O2 -g -c -o $@ $<\n' "$(cd "$T/tree" && ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')" \
		>"$T/tree/Makefile"
	"$U" collect --call-graph dwarf -o "$T/c" sh -c \
		"for i in 1 2 3; do make -s -B -j2 -C '$T/tree' || exit 1; done" >/dev/null 2>&1 || exit 1
	SES=$(ls -d "$T"/c/uprof-* | head -n1)
fi
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
