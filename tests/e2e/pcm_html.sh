#!/usr/bin/env bash
# uprof pcm --html: report.html beside the CSV (-O DIR and -o FILE), checked against the CSV
# it sits beside: a chart per metric and level (system, package, core) with a series per
# unit (all cores of one metric together), a point per CSV row whose value is the CSV's
# cell, a heat map of a level's units by interval whose cells are the CSV's, the metadata
# lines and the cumulative table; self-contained (no script, no external reference). Then
# looked at in headless Chromium: screenshots that are not blank (the cores' page kept in
# $BUILD/test-artifacts/report_html/pcm-cores.png), and no console errors while it loads.
. "$(dirname "$0")/lib/common.sh"

# a program that runs about a second and a half, busy (CPU time, context switches vary)
APP=(sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 0.3')
D=$SCRATCH/run
"$UPROF" pcm -m swi -I 100 -d 2 --html -O "$D" -- "${APP[@]}" >"$SCRATCH/sum" 2>"$SCRATCH/err"
rc=$?
check "pcm --html -O DIR: exit 0 ($(head -c 300 "$SCRATCH/err"))" [ $rc = 0 ]
check "-O DIR: DIR/report.csv and DIR/report.html, both named on stderr" bash -c "
	[ -s '$D/report.csv' ] && [ -s '$D/report.html' ] &&
	grep -qx 'Generated data file path: $D/report.csv' '$SCRATCH/err' &&
	grep -qx 'Generated HTML report path: $D/report.html' '$SCRATCH/err'"

# compare CSV [CUMULATIVE]: the page against the CSV; prints "ok|bad <what>" lines
compare() {
	"$PYTHON" - "$@" <<'EOF'
import csv, sys
from html.parser import HTMLParser

csv_path, html_path = sys.argv[1], sys.argv[1].rsplit("/", 1)[0] + "/report.html"
cum_path = sys.argv[2] if len(sys.argv) > 2 else csv_path
lines = list(csv.reader(open(csv_path)))
start = next(i for i, l in enumerate(lines) if l and l[0] == "Timestamp")
groups, comps, names = lines[start - 2], lines[start - 1], lines[start]
meta = [l for l in lines[:start - 2]]
rows = []
for l in lines[start + 1:]:
    if not l or l[0] == "Metric":
        break
    rows.append(l)
cols = []  # (metric, unit) per column, as the CSV's three header rows place them
unit = None
for i in range(1, len(names) - 1):
    if comps[i]:
        unit = comps[i]
    cols.append((names[i], unit))
cl = list(csv.reader(open(cum_path)))
ci = next(i for i, l in enumerate(cl) if l and l[0] == "Metric")
cum = [l for l in cl[ci:] if l]

class Page(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True)
        s.charts, s.cur, s.in_title, s.tables, s.table, s.row, s.cell = [], None, False, {}, None, None, None
        s.scripts, s.external = 0, []
        s.svgs, s.heats, s.heat, s.heat_th = 0, [], None, False
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "script":
            s.scripts += 1
        for k in ("src", "href"):
            if k in a:
                s.external.append(a[k])
        if tag == "link":
            s.external.append(a.get("href", "link"))
        if tag == "svg":
            s.svgs += 1
        elif tag == "g" and "series" in a.get("class", "").split():
            s.cur = {"metric": a.get("data-metric"), "unit": a.get("data-unit"), "pts": []}
            s.charts.append(s.cur)
        elif tag == "table" and a.get("class") == "heat":
            s.heat = {"metric": a.get("data-metric"), "rows": []}
            s.heats.append(s.heat)
        elif tag == "th" and s.heat is not None:
            s.heat["rows"].append([])
            s.heat_th = True
        elif tag == "td" and s.heat is not None:
            s.heat["rows"][-1].append((a.get("data-row"), a.get("data-value")))
        elif tag == "circle" and s.cur is not None and "pt" in a.get("class", "").split():
            s.cur["pts"].append([a.get("data-row"), a.get("data-value"), ""])
        elif tag == "title" and s.cur is not None and s.cur["pts"]:
            s.in_title = True
        elif tag == "table":
            s.table = a.get("class")
            s.tables[s.table] = []
        elif tag == "tr" and s.table:
            s.row = []
            s.tables[s.table].append(s.row)
        elif tag in ("td", "th") and s.row is not None:
            s.cell = ""
    def handle_endtag(s, tag):
        if tag == "g":
            s.cur = None
        elif tag == "table" and s.heat is not None:
            s.heat = None
            return
        elif tag == "th" and s.heat_th:
            s.heat_th = False
            return
        elif tag == "title":
            s.in_title = False
        elif tag in ("td", "th") and s.cell is not None:
            s.row.append(s.cell)
            s.cell = None
        elif tag == "table":
            s.table = None
    def handle_data(s, d):
        if s.heat_th:
            s.heat["rows"][-1].append(d)
            return
        if s.in_title:
            s.cur["pts"][-1][2] += d
        if s.cell is not None:
            s.cell += d

p = Page()
p.feed(open(html_path).read())
p.close()
def say(good, what):
    print(("ok " if good else "bad ") + what)
say(len(rows) >= 2, f"the CSV has {len(rows)} rows")
say(len(p.charts) == len(cols),
    f"one series per metric and unit: {len(p.charts)} series, {len(cols)} CSV columns")
# a chart per metric and level, its series the units' (all cores of one metric together)
say(sorted((c["metric"], c["unit"]) for c in p.charts) == sorted(cols), "the series named as the CSV's header")
metrics = []
for m, u in cols:
    metrics += [] if m in metrics else [m]
levels = {}
for m, u in cols:
    levels.setdefault(m, set()).add(u.rsplit("-", 1)[0] if u[-1:].isdigit() else u)
want_charts = sum(len(v) for v in levels.values())
say(p.svgs == want_charts, f"a chart per metric and level: {p.svgs} charts, {want_charts} (metric, level) pairs")
# the series back in the CSV's column order, for the checks below
p.charts.sort(key=lambda c: cols.index((c["metric"], c["unit"])) if (c["metric"], c["unit"]) in cols else -1)
# a heat map per metric of a level with several units: a row per unit, a cell per CSV row
hm = {}
for h in p.heats:
    for r in h["rows"]:
        hm[(h["metric"], r[0])] = r[1:]
multi = [(m, u) for m, u in cols if u[-1:].isdigit() and sum(1 for m2, u2 in cols if m2 == m and u2.rsplit("-", 1)[0] == u.rsplit("-", 1)[0]) > 1]
badh = [(m, u) for m, u in multi if [v for _, v in hm.get((m, u), [])] != [r[cols.index((m, u)) + 1] for r in rows]]
say(not badh and len(hm) == len(multi), f"the heat maps: a row per unit of {len(multi)} with every cell the CSV's value {badh[:3]}")
say(all(len(c["pts"]) == len(rows) for c in p.charts),
    f"each chart has as many points as the CSV has rows ({[len(c['pts']) for c in p.charts]} vs {len(rows)})")
bad = [(c["metric"], r, pt, rows[r][i + 1]) for i, c in enumerate(p.charts)
       for r, pt in enumerate(c["pts"])
       if r < len(rows) and (pt[0] != str(r) or pt[1] != rows[r][i + 1])]
say(not bad and p.charts, f"every point's value is the CSV's cell {bad[:3]}")
badt = [(pt[2], rows[r][0]) for i, c in enumerate(p.charts) for r, pt in enumerate(c["pts"])
        if r < len(rows) and pt[2] != f"{rows[r][0]}: {rows[r][i + 1] or 'not computable'}"]
say(not badt, f"each point's hover title is the row's Timestamp and value {badt[:2]}")
say(p.tables.get("cumulative") == cum, f"the cumulative table equals the CSV's {p.tables.get('cumulative', [])[:2]} {cum[:2]}")
facts = [r for r in p.tables.get("facts", []) if r[0] != "Program:"]
say(facts == meta, f"the facts table holds the CSV's metadata lines ({len(facts)} vs {len(meta)})")
say(p.scripts == 0 and not p.external, f"self-contained: no script, no external reference {p.external[:3]}")
EOF
}
if [ $rc = 0 ]; then
	# the cumulative table went to stdout (as without --html)
	compare "$D/report.csv" "$SCRATCH/sum" >"$SCRATCH/cmp" 2>&1
	check "the page was parsed ($(tail -3 "$SCRATCH/cmp"))" grep -q '^ok self-contained' "$SCRATCH/cmp"
	while read -r verdict what; do
		if [ "$verdict" = ok ]; then ok "-O: $what"; else not_ok "-O: $what"; fi
	done < <(grep -E '^(ok|bad) ' "$SCRATCH/cmp")
fi

# -A system,package -a: a chart per metric and level, a series per unit; -o FILE puts
# report.html beside FILE
mkdir -p "$SCRATCH/o"
"$UPROF" pcm -m swi -A system,package -a -I 100 -d 0.5 --html -o "$SCRATCH/o/x.csv" \
	>"$SCRATCH/sum2" 2>"$SCRATCH/err2"
check "-A system,package -o FILE --html: exit 0, report.html beside FILE" \
	bash -c "[ -s '$SCRATCH/o/report.html' ]"
compare "$SCRATCH/o/x.csv" "$SCRATCH/sum2" >"$SCRATCH/cmp2" 2>&1
check "-A system,package: 11 series and charts (5 metrics x System, Package-0, and the multiplex scale) ($(grep -E 'one series|a chart per' "$SCRATCH/cmp2" | tr '\n' ' '))" \
	bash -c "grep -q '^ok one series per metric and unit: 11 series' '$SCRATCH/cmp2' && grep -q '^ok a chart per metric and level: 11 charts' '$SCRATCH/cmp2'"
check "-A system,package: every point equals the CSV ($(grep -v '^ok' "$SCRATCH/cmp2" | head -3))" \
	bash -c "! grep -q '^bad' '$SCRATCH/cmp2' && [ \$(grep -c '^ok' '$SCRATCH/cmp2') = 11 ]"

# -A system,core -a: all cores of a metric on one chart, a series each, and a heat map of
# the cores by interval; every point and cell the CSV's
mkdir -p "$SCRATCH/c"
"$UPROF" pcm -m swi -A system,core -a -I 100 -d 0.6 --html -o "$SCRATCH/c/x.csv" \
	>"$SCRATCH/sum4" 2>"$SCRATCH/err4"
compare "$SCRATCH/c/x.csv" "$SCRATCH/sum4" >"$SCRATCH/cmp4" 2>&1
ncores=$(awk -F, '$1=="Timestamp"{print gsub(/CPU Utilization/, "")-1; exit}' "$SCRATCH/c/x.csv")
check "-A system,core: $ncores cores, a series each on one chart per metric, every point, and every heat-map cell, the CSV's ($(grep -E 'a chart per|heat maps' "$SCRATCH/cmp4" | tr '\n' ' '))" \
	bash -c "! grep -q '^bad' '$SCRATCH/cmp4' && [ \$(grep -c '^ok' '$SCRATCH/cmp4') = 11 ] &&
		grep -q '^ok a chart per metric and level: 11 charts' '$SCRATCH/cmp4' &&
		{ [ '$ncores' -lt 2 ] || grep -q '^ok the heat maps: a row per unit of $((ncores * 5))' '$SCRATCH/cmp4'; }"

# usage
"$UPROF" pcm -m swi -d 1 --html >/dev/null 2>&1
check "--html without -o/-O is a usage error (exit 2)" [ $? = 2 ]
"$UPROF" pcm -m swi -d 1 -o "$SCRATCH/a.csv" -O "$SCRATCH/b" >/dev/null 2>&1
check "-o with -O is a usage error (exit 2)" [ $? = 2 ]
"$UPROF" pcm -m swi -d 0.2 -O "$SCRATCH/b" >/dev/null 2>&1
check "-O without --html: DIR/report.csv only" bash -c "[ -s '$SCRATCH/b/report.csv' ] && [ ! -e '$SCRATCH/b/report.html' ]"
: >"$SCRATCH/file"
expect_fail 1 "-O naming a file: one line" "cannot make|cannot write" \
	"$UPROF" pcm -m swi -d 0.2 --html -O "$SCRATCH/file/sub"
if [ -w /dev/full ]; then
	ln -sf /dev/full "$SCRATCH/o/report.html"
	"$UPROF" pcm -m swi -d 0.2 --html -o "$SCRATCH/o/y.csv" >/dev/null 2>"$SCRATCH/err3"
	rc=$?
	check "a page that cannot be written (full disk): exit 1, naming it ($(tail -1 "$SCRATCH/err3"))" \
		bash -c "[ $rc = 1 ] && grep -q \"cannot write '$SCRATCH/o/report.html'\" '$SCRATCH/err3'"
fi

# ---- headless Chromium ----
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ] || [ ! -s "$D/report.html" ]; then
	ok "headless Chromium screenshot # SKIP chromium is not installed (scripts/install-deps.sh installs it)"
	ok "headless Chromium console # SKIP chromium is not installed"
else
	export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
	chrome() { timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$SCRATCH/chrome" "$@"; }
	chrome --window-size=1000,1600 --screenshot="$SCRATCH/shot.png" "file://$D/report.html" \
		>/dev/null 2>"$SCRATCH/shot.err"
	# pixel variety: the PNG decoded with zlib; a blank page is one colour
	stats=$("$PYTHON" - "$SCRATCH/shot.png" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w, h, ct = 8, b"", 0, 0, 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ct = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ct]
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours, ink = set(), 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        if px != b"\xff\xff\xff":
            ink += 1
print(w, h, len(colours), ink)
EOF
)
	read -r w h ncol ink <<<"$stats"
	check "screenshot: ${w:-?}x${h:-?} PNG with ${ncol:-0} colours, ${ink:-0} non-white pixels (not blank)" \
		bash -c "[ '${ncol:-0}' -ge 16 ] && [ '${ink:-0}' -ge 10000 ]"
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$D/report.html" >"$SCRATCH/dom" \
		2>"$SCRATCH/console"
	check "page loads: the DOM has the charts, no console message ($(grep -m2 -i 'CONSOLE' "$SCRATCH/console"))" \
		bash -c "[ \$(grep -c '<svg' '$SCRATCH/dom') = \$(grep -c '<svg' '$D/report.html') ] && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/console'"
	# the cores' page, kept: its charts of several series and its heat maps, as Chromium
	# draws them at 1400 wide (the whole page)
	SHOTS=$PWD/$BUILD/test-artifacts/report_html
	mkdir -p "$SHOTS"
	chrome --window-size=1400,3000 --screenshot="$SHOTS/pcm-cores.png" "file://$SCRATCH/c/report.html" >/dev/null 2>&1
	read -r w h ncol ink _ <<<"$("$PYTHON" "$HERE/pngstats.py" "$SHOTS/pcm-cores.png" 2>/dev/null)"
	check "-A system,core: screenshot ${w:-?}x${h:-?}, ${ncol:-0} colours, ${ink:-0} non-white pixels (in $SHOTS)" \
		bash -c "[ '${w:-0}' = 1400 ] && [ '${ncol:-0}' -ge 16 ] && [ '${ink:-0}' -ge 20000 ]"
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$SCRATCH/c/report.html" >"$SCRATCH/cdom" \
		2>"$SCRATCH/cconsole"
	check "-A system,core: the page loads, no console message" \
		bash -c "[ -s '$SCRATCH/cdom' ] && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/cconsole'"
fi
echo "1..$_n"
