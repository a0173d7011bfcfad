#!/usr/bin/env bash
# report.html's timeline for a --trace os session (issue 31): each thread's track carries
# its states (running, runnable, blocked) over time. For tests/targets/ostrace_waits (a
# nanosleep, a mutex wait, a pipe read): every thread of THREAD STATES has a track whose
# totals are report.csv's to the microsecond, its per-bin bands add back up to those
# totals (within the bins' rounding), no span is left out, and the page loads in headless
# Chromium with no console message; a 1400x900 screenshot of the timeline is kept in
# $BUILD/test-artifacts/report_html/.
. "$(dirname "$0")/lib/common.sh"

hq() { "$PYTHON" "$HERE/htmlq.py" "$@"; }
SHOTS=$PWD/$BUILD/test-artifacts/report_html
mkdir -p "$SHOTS"
CHROME=$(command -v chromium || command -v chromium-browser || true)
export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
chrome() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$SCRATCH/chrome" --virtual-time-budget=5000 "$@"; }

"$UPROF" collect --trace os -o "$SCRATCH/os" "$TGT/ostrace_waits" "$SCRATCH/facts" \
	>"$SCRATCH/os.out" 2>"$SCRATCH/os.err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'tracefs\|not readable\|permission' "$SCRATCH/os.err"; then
	ok "# SKIP OS tracing not possible here: $(head -c 300 "$SCRATCH/os.err")"
	echo "1..$_n"
	exit 0
fi
check "collect --trace os exits 0 ($(tail -c 300 "$SCRATCH/os.err"))" [ $rc -eq 0 ]
S=$(session_in "$SCRATCH/os")
timeout 120 "$UPROF" report -i "$S" --export html >/dev/null 2>"$SCRATCH/rep.err"
check "report --export html exits 0 and writes report.html" [ -s "$S/report.html" ]

hq "$S/report.html" ostates >"$SCRATCH/states"
csvq "$S/report.csv" "THREAD STATES" | awk -F'\t' '{ printf "%s\t%s\t%s\t%s\n", $3, $5, $6, $7 }' |
	sort -n >"$SCRATCH/csv"
grep -v '^spans' "$SCRATCH/states" | cut -f1-4 >"$SCRATCH/page"
check "every thread of THREAD STATES has a track with its running, runnable and blocked seconds ($(tr '\n\t' '; ' <"$SCRATCH/page"))" \
	bash -c "[ \$(wc -l <'$SCRATCH/csv') -ge 3 ] && cmp -s '$SCRATCH/page' '$SCRATCH/csv'"
check "no state span is left out ($(grep '^spans' "$SCRATCH/states"))" grep -qx 'spans-left-out 0' "$SCRATCH/states"
# each bin's permille rounds by at most half a permille of a bin: 300 bins, 0.15 bin a state
span=$("$PYTHON" -c "import json,re,sys; t=open(sys.argv[1]).read(); d=json.loads(re.search(r'id=\"data\">(.*?)</script>', t, re.S).group(1)); print(d['timeline']['span'] / 1e6)" "$S/report.html")
check "each track's bands add back up to its totals (within 0.15 bin of ${span} s / 300)" \
	awk -F'\t' -v w="$span" '!/^spans/ { for (j = 2; j <= 4; j++) { d = $j - $(j + 3); if (d < 0) d = -d; if (d > 0.15 * w / 300 + 2e-6) bad = 1 } } END { exit bad }' "$SCRATCH/states"

if [ -z "$CHROME" ]; then
	ok "headless Chromium checks # SKIP chromium is not installed (scripts/install-deps.sh)"
else
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$S/report.html?all" >"$SCRATCH/os.dom" \
		2>"$SCRATCH/os.console"
	check "the page loads in Chromium, no console message ($(grep -m1 -iE 'CONSOLE|Uncaught' "$SCRATCH/os.console"))" \
		bash -c "grep -q 'data-ready=\"1\"' '$SCRATCH/os.dom' && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/os.console'"
	chrome --window-size=1400,900 --screenshot="$SHOTS/ostrace-timeline.png" "file://$S/report.html#timeline" \
		>/dev/null 2>&1
	read -r w h ncol ink _ <<<"$("$PYTHON" "$HERE/pngstats.py" "$SHOTS/ostrace-timeline.png" 2>/dev/null)"
	check "a screenshot of the timeline, ${w:-?}x${h:-?}, ${ncol:-0} colours, ${ink:-0} non-white pixels" \
		bash -c "[ '${w:-0}' = 1400 ] && [ '${ncol:-0}' -ge 16 ] && [ '${ink:-0}' -ge 20000 ]"
fi
echo "1..$_n"
