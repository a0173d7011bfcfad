#!/usr/bin/env bash
# bench/html.sh [-s SESSION] [-n BUILDS] [-r ROUNDS] UPROF: report.html of a large session (issue 31,
# must show 2): its size, what each part of its data weighs, and what it costs to make and
# to open, each against a bare baseline of the same run:
#   report          uprof report -i S                (report.csv alone)
#   report+html     uprof report -i S --export html
#   report+flame    uprof report -i S --export flamegraph (what every export of stacks pays)
#   chromium bare   headless Chromium --dump-dom of an empty page
#   chromium first  the same of report.html as it opens (its Summary; a page is built when
#                   first shown)
#   chromium all    the same with every page built (?all)
# Without -s, collects one: make -j2 of bench/tools/make_session.sh's 16-file tree, BUILDS
# times (default 10), under --call-graph dwarf:4096 with a 0.1 ms timer, about 200,000
# samples of deep multi-process stacks here. Medians of ROUNDS rounds (3), interleaved.
set -u
SES= BUILDS=10 ROUNDS=3
while getopts s:n:r: o; do
	case $o in
	s) SES=$OPTARG ;;
	n) BUILDS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1)) || { echo "usage: $0 [-s SESSION] [-n BUILDS] [-r ROUNDS] UPROF" >&2; exit 2; }
U=$1
CHROME=$(command -v chromium || command -v chromium-browser) || { echo "no chromium" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-bench-html.XXXXXX)
trap 'rm -rf "$T"' EXIT
if [ -z "$SES" ]; then
	# the tree of make_session.sh, built BUILDS times at 10 kHz
	"$(dirname "$0")/tools/make_session.sh" "$U" "$T/small" >/dev/null || exit 1
	"$U" collect --call-graph dwarf:4096 --timer-interval 0.1 -o "$T/c" sh -c \
		"for i in \$(seq $BUILDS); do make -s -B -j2 -C '$T/small/tree' || exit 1; done" \
		>/dev/null 2>&1 || exit 1
	SES=$(ls -d "$T"/c/uprof-* | head -n1)
fi
export HOME=$T XDG_CONFIG_HOME=$T/.config XDG_CACHE_HOME=$T/.cache
echo '<!DOCTYPE html><html><body>bare</body></html>' >"$T/bare.html"
now() { date +%s.%N; }
# wall seconds of a command
wall() {
	local a b
	a=$(now)
	"$@" >/dev/null 2>&1
	b=$(now)
	echo "$b - $a" | bc -l
}
chrome() { "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$T/chrome" --dump-dom "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
"$U" report -i "$SES" --export html >/dev/null 2>&1 || exit 1
for ((r = 0; r < ROUNDS; r++)); do
	wall "$U" report -i "$SES" >>"$T/report"
	wall "$U" report -i "$SES" --export html >>"$T/html"
	wall "$U" report -i "$SES" --export flamegraph >>"$T/flame"
	wall chrome "file://$T/bare.html" >>"$T/bare"
	wall chrome "file://$SES/report.html" >>"$T/first"
	wall chrome "file://$SES/report.html?all" >>"$T/page"
done
chrome "file://$SES/report.html?all" >"$T/dom" 2>/dev/null
samples=$(grep -m1 '^Samples:' "$SES/report.csv" | tr -dc 0-9)
size=$(stat -c %s "$SES/report.html")
rep=$(median <"$T/report") htm=$(median <"$T/html") flame=$(median <"$T/flame")
bare=$(median <"$T/bare") first=$(median <"$T/first") page=$(median <"$T/page")
printf 'session        %s\n' "$SES"
printf 'samples        %s (samples.data %s bytes)\n' "$samples" "$(stat -c %s "$SES/samples.data")"
printf 'report.html    %s bytes (%.2f MB); data: %s\n' "$size" "$(echo "$size / 1000000" | bc -l)" \
	"$(python3 - "$SES/report.html" <<'PY'
import json, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', t, re.S).group(1))
f = d["flame"]
print(", ".join("%s %d KB" % (k, len(json.dumps(d[k], separators=(",", ":"), ensure_ascii=False)) // 1000) for k in ("csv", "flame", "timeline", "source") if k in d) +
      "; flame %d frames of %d names, %d samples pruned; %d threads" %
      (len(f["nodes"]), len(f["names"]), f["pruned"], len(d["timeline"]["threads"])))
PY
)"
printf 'report         %.2f s; with --export html %.2f s (%.2f x); with --export flamegraph %.2f s (%.2f x)\n' \
	"$rep" "$htm" "$(echo "$htm / $rep" | bc -l)" "$flame" "$(echo "$flame / $rep" | bc -l)"
printf 'chromium       bare page %.2f s; report.html as it opens %.2f s (+%.2f s, %.2f x); every page built %.2f s (+%.2f s, %.2f x)\n' \
	"$bare" "$first" "$(echo "$first - $bare" | bc -l)" "$(echo "$first / $bare" | bc -l)" \
	"$page" "$(echo "$page - $bare" | bc -l)" "$(echo "$page / $bare" | bc -l)"
printf 'page ready     %s\n' "$(grep -c 'data-ready="1"' "$T/dom")"
