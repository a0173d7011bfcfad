#!/usr/bin/env bash
# report --export html (issue 31) in Firefox too: "working from file:// in current Chromium
# and Firefox". report_html.sh checks the pages in headless Chromium; here headless
# Firefox ESR loads the same kinds of page (a tasks session with stacks, an OpenMP
# session, compare --html) from file:// and must report no JavaScript error or warning of
# the page and no console error or warning it printed (a page with a script that throws
# shows that the check sees one); the DOM after the script ran (every page built: ?all) is
# read back through a probe appended to a copy of the page (Firefox has no --dump-dom:
# the probe prints the DOM, URI-encoded, on the console, which the profile sends to
# stdout) and shows report.csv's numbers, as in Chromium; a 1400x900 screenshot of the
# Hotspots page is kept in $BUILD/test-artifacts/report_html/.
. "$(dirname "$0")/lib/common.sh"

hq() { "$PYTHON" "$HERE/htmlq.py" "$@"; }
SHOTS=$PWD/$BUILD/test-artifacts/report_html
mkdir -p "$SHOTS"
FUNCS='^(ALL|[0-9]+ HOTTEST) FUNCTIONS \(Sort'
FIREFOX=$(command -v firefox-esr || command -v firefox || true)
if [ -z "$FIREFOX" ]; then
	ok "headless Firefox checks # SKIP firefox-esr is not installed (scripts/install-deps.sh installs it)"
	echo "1..$_n"
	exit 0
fi
export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
# a profile that prints the page's console and its script errors on stdout
mkdir -p "$SCRATCH/ff"
cat >"$SCRATCH/ff/user.js" <<'PREFS'
user_pref("devtools.console.stdout.content", true);
user_pref("browser.dom.window.dump.enabled", true);
user_pref("javascript.options.showInConsole", true);
PREFS
firefox() { timeout 120 "$FIREFOX" --headless --no-remote --profile "$SCRATCH/ff" "$@"; }
# load NAME PAGE: the page, a probe appended to a copy of it, loaded with every page built;
# Firefox's output into $SCRATCH/NAME.out, the DOM the probe printed into $SCRATCH/NAME.dom
load() {
	"$PYTHON" - "$2" "$SCRATCH/$1.probe.html" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
probe = ("<script>window.addEventListener('load', function () { console.log('UPROF-DOM ' + "
         "encodeURIComponent(document.documentElement.outerHTML)); });</script>")
i = s.rindex("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(s[:i] + probe + s[i:])
PY
	firefox --screenshot "$SCRATCH/$1.png" "file://$SCRATCH/$1.probe.html?all" >"$SCRATCH/$1.out" 2>&1
	"$PYTHON" - "$SCRATCH/$1.out" "$SCRATCH/$1.dom" <<'PY'
import re, sys, urllib.parse
m = re.search(r'UPROF-DOM ([^"\s]+)', open(sys.argv[1], encoding="utf-8", errors="replace").read())
open(sys.argv[2], "w", encoding="utf-8").write(urllib.parse.unquote(m.group(1)) if m else "")
PY
}
# the page's own errors and console messages (Firefox's own, of its chrome, are not the page's)
page_noise() { grep -E '^JavaScript (error|warning): file://|^console\.(error|warn): "' "$SCRATCH/$1.out"; }
clean() { grep -q 'data-ready="1"' "$SCRATCH/$1.dom" && ! page_noise "$1" >/dev/null; }

# ---- a tasks session with frame-pointer stacks ----
"$UPROF" collect -g -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
ST=$S
timeout 120 "$UPROF" report -i "$S" --export html >/dev/null 2>&1
check "tasks: report --export html wrote report.html" [ -s "$S/report.html" ]
load t "$S/report.html"
check "tasks: every page loads in Firefox ($("$FIREFOX" --version 2>/dev/null)), no error or console message of the page ($(page_noise t | head -n1))" \
	clean t
sed 's|<body>|<body><script>null.boom();</script>|' "$S/report.html" >"$SCRATCH/broken.html"
load broken "$SCRATCH/broken.html"
check "a page whose script fails is seen failing in Firefox ($(page_noise broken | head -n1 | cut -c1-90))" \
	bash -c "grep -qE '^JavaScript error: file://.*TypeError' '$SCRATCH/broken.out'"
csvq "$S/report.csv" "HOTTEST FUNCTIONS (Sort" | head -5 >"$SCRATCH/t.csv5"
hq "$SCRATCH/t.dom" dom "$FUNCS" 5 0,1,3 >"$SCRATCH/t.dom5"
check "tasks: in Firefox the Hotspots page shows report.csv's top 5 functions ($(cut -f1 "$SCRATCH/t.dom5" | tr '\n' ' '))" \
	bash -c "[ -s '$SCRATCH/t.csv5' ] && cmp -s '$SCRATCH/t.dom5' '$SCRATCH/t.csv5'"
firefox --window-size=1400,900 --screenshot "$SHOTS/firefox-tasks-hotspots.png" \
	"file://$S/report.html#hotspots" >/dev/null 2>&1
read -r w h ncol ink _ <<<"$("$PYTHON" "$HERE/pngstats.py" "$SHOTS/firefox-tasks-hotspots.png" 2>/dev/null)"
check "tasks: Firefox's screenshot of the Hotspots page, ${w:-?}x${h:-?}, ${ncol:-0} colours, ${ink:-0} non-white pixels" \
	bash -c "[ '${w:-0}' = 1400 ] && [ '${ncol:-0}' -ge 16 ] && [ '${ink:-0}' -ge 20000 ]"

# ---- an OpenMP session: its region row ----
OMP_NUM_THREADS=2 KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp --openmp-scope full -g \
	-o "$SCRATCH/o" "$TGT/omp_imbalance" "$SCRATCH/o.own" >/dev/null 2>&1
S=$(session_in "$SCRATCH/o")
timeout 120 "$UPROF" report -i "$S" --export html >/dev/null 2>&1
load o "$S/report.html"
check "openmp: every page loads in Firefox, no error or console message of the page ($(page_noise o | head -n1))" \
	clean o
csvq "$S/report.csv" "OpenMP PARALLEL-REGION METRIC" | head -1 >"$SCRATCH/o.csv1"
hq "$SCRATCH/o.dom" dom "^OpenMP PARALLEL-REGION METRIC" 1 >"$SCRATCH/o.dom1"
check "openmp: in Firefox the OpenMP page shows report.csv's region row ($(cut -f1 "$SCRATCH/o.csv1"))" \
	bash -c "[ -s '$SCRATCH/o.csv1' ] && cmp -s '$SCRATCH/o.dom1' '$SCRATCH/o.csv1'"

# ---- compare --html ----
timeout 120 "$UPROF" compare "$ST" "$S" --html "$SCRATCH/cmp.html" -o "$SCRATCH/cmp.csv" >/dev/null 2>&1
load c "$SCRATCH/cmp.html"
check "compare: the page loads in Firefox, no error or console message of the page ($(page_noise c | head -n1))" \
	clean c
echo "1..$_n"
