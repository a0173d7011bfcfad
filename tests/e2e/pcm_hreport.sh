#!/usr/bin/env bash
# uprof pcm hreport DIR: report.html drawn again from what a pcm run saved in its -O
# directory, by the page writer the run used: byte-identical to the run's own page for
# pcm profile -O, pcm -O --html and pcm -C -O --html; every point and the cumulative table
# equal to the CSV's cells (the page's data-* values parsed); a directory of an older uprof
# (no report-run.tsv, no report-cumulative.csv) still drawn, with what it lacks said; damaged
# files (truncated, a bad value, a header cut, a run file that does not match, a NUL byte,
# a symbolic link) refused in one line with exit 2 and nothing written. Headless Chromium
# loads the page without console messages.
. "$(dirname "$0")/lib/common.sh"

APP=(sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sleep 0.2')

# ---- pcm profile -O: the run's page and hreport's are the same bytes ----
P=$SCRATCH/prof
"$UPROF" pcm profile -m swi -a -A system,core -I 100 -O "$P" -- "${APP[@]}" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "pcm profile -O: exit 0, report-run.tsv beside the CSVs ($(head -c 300 "$SCRATCH/err"))" \
	bash -c "[ $rc = 0 ] && [ -s '$P/report-run.tsv' ] && [ -s '$P/report-timeseries.csv' ]"
check "report-run.tsv: the program's command line, each metric's group and kind" \
	bash -c "head -1 '$P/report-run.tsv' | grep -qxP 'uprof-pcm-run\t1' &&
		grep -qxP 'program\tsh\t-c\ti=0; while .*sleep 0.2' '$P/report-run.tsv' &&
		grep -qxP 'metric\tswi\tcount\tContext Switches' '$P/report-run.tsv' &&
		grep -qxP 'metric\tswi\tderived\tCPU Utilization \(%\)' '$P/report-run.tsv'"
cp "$P/report.html" "$SCRATCH/prof-live.html"
"$UPROF" pcm hreport "$P" -o "$SCRATCH/prof-again.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "hreport DIR -o FILE: exit 0, FILE named on stderr, nothing on stdout" \
	bash -c "[ $rc = 0 ] && grep -qx 'Generated HTML report path: $SCRATCH/prof-again.html' '$SCRATCH/err' && [ ! -s '$SCRATCH/out' ]"
check "hreport of pcm profile's directory: byte-identical to the run's report.html" \
	cmp "$SCRATCH/prof-live.html" "$SCRATCH/prof-again.html"
rm "$P/report.html"
"$UPROF" pcm hreport "$P" >/dev/null 2>&1
check "hreport DIR: DIR/report.html, the same bytes" cmp "$SCRATCH/prof-live.html" "$P/report.html"

# the page's values against the CSVs: every point of every series is its CSV cell, the
# cumulative table is report-cumulative.csv's, the Program line is the command run
values() {
	"$PYTHON" - "$@" <<'EOF'
import csv, sys
from html.parser import HTMLParser
ts, cum, page = sys.argv[1:4]
lines = list(csv.reader(open(ts)))
h = next(i for i, l in enumerate(lines) if l and l[0] == "Timestamp")
comps, names = lines[h - 1], lines[h]
rows = [l for l in lines[h + 1:] if l]
cols, unit = [], None
for i in range(1, len(names) - 1):
    unit = comps[i] or unit
    cols.append((names[i], unit))
cl = [l for l in csv.reader(open(cum)) if l]
ci = next(i for i, l in enumerate(cl) if l[0] == "Metric")
class P(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True)
        s.series, s.cur, s.tab, s.rows, s.cell = {}, None, None, {}, None
    def handle_starttag(s, t, a):
        a = dict(a)
        if t == "g" and a.get("class") == "series":
            s.cur = s.series.setdefault((a["data-metric"], a["data-unit"]), [])
        elif t == "circle" and s.cur is not None:
            s.cur.append(a["data-value"])
        elif t == "table" and a.get("class") in ("cumulative", "facts"):
            s.tab = a["class"]
            s.rows[s.tab] = []
        elif t == "tr" and s.tab:
            s.rows[s.tab].append([])
        elif t in ("td", "th") and s.tab:
            s.cell = ""
    def handle_endtag(s, t):
        if t == "g":
            s.cur = None
        elif t in ("td", "th") and s.cell is not None:
            s.rows[s.tab][-1].append(s.cell)
            s.cell = None
        elif t == "table":
            s.tab = None
    def handle_data(s, d):
        if s.cell is not None:
            s.cell += d
p = P()
p.feed(open(page).read())
bad = [(m, u) for i, (m, u) in enumerate(cols) if p.series.get((m, u)) != [r[i + 1] for r in rows]]
print("points", len(rows), len(cols), "bad", bad[:3])
print("cumulative", "same" if p.rows.get("cumulative") == cl[ci:] else "differs")
print("program", [r[1] for r in p.rows.get("facts", []) if r[0] == "Program:"])
EOF
}
values "$P/report-timeseries.csv" "$P/report-cumulative.csv" "$SCRATCH/prof-again.html" >"$SCRATCH/v" 2>&1
ncols=$(awk -F, '$1=="Timestamp"{print NF-2; exit}' "$P/report-timeseries.csv")
nrows=$(awk 'f&&NF{n++} /^Timestamp,/{f=1} END{print n+0}' "$P/report-timeseries.csv")
check "every point of the page is its CSV cell ($nrows rows x $ncols columns: $(head -1 "$SCRATCH/v"))" \
	bash -c "[ $nrows -ge 2 ] && grep -qx 'points $nrows $ncols bad \[\]' '$SCRATCH/v'"
check "the page's cumulative table is report-cumulative.csv's, cell for cell" grep -qx 'cumulative same' "$SCRATCH/v"
check "the page's Program line is the command run ($(tail -1 "$SCRATCH/v"))" \
	grep -q "^program \['sh -c i=0; while" "$SCRATCH/v"

# ---- pcm -O --html: the cumulative table kept beside report.csv; the same page ----
O=$SCRATCH/o
"$UPROF" pcm -m swi -I 100 --html -O "$O" -- "${APP[@]}" >"$SCRATCH/osum" 2>"$SCRATCH/err"
check "pcm -O: report-cumulative.csv is the table shown on stdout" \
	bash -c "diff <(sed -n '/^Metric,/,\$p' '$O/report-cumulative.csv') <(sed -n '/^Metric,/,\$p' '$SCRATCH/osum')"
cp "$O/report.html" "$SCRATCH/o-live.html"
"$UPROF" pcm hreport "$O" >/dev/null 2>&1
check "hreport of pcm -O --html's directory: byte-identical to the run's page" cmp "$SCRATCH/o-live.html" "$O/report.html"

# ---- pcm -C -O --html: report.csv is the table (after the run's facts); the same page ----
C=$SCRATCH/c
"$UPROF" pcm -m swi -C --html -O "$C" -- "${APP[@]}" >/dev/null 2>&1
cp "$C/report.html" "$SCRATCH/c-live.html"
rm "$C/report.html"
"$UPROF" pcm hreport "$C" >/dev/null 2>&1
check "hreport of pcm -C -O --html's directory: byte-identical to the run's page" cmp "$SCRATCH/c-live.html" "$C/report.html"

# ---- a directory of an older uprof: no report-run.tsv, then no report-cumulative.csv ----
cp -r "$P" "$SCRATCH/old"
rm "$SCRATCH/old/report-run.tsv" "$SCRATCH/old/report.html"
"$UPROF" pcm hreport "$SCRATCH/old" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "no report-run.tsv: exit 0, said ($(head -c 200 "$SCRATCH/err"))" \
	bash -c "[ $rc = 0 ] && grep -q 'note: .* holds no report-run.tsv' '$SCRATCH/err'"
check "no report-run.tsv: the run's page but its Program line (counts told by their cells)" \
	bash -c "diff <(grep -v '^<tr><th>Program:</th>' '$SCRATCH/prof-live.html') '$SCRATCH/old/report.html'"
rm "$SCRATCH/old/report-cumulative.csv" "$SCRATCH/old/report.html"
"$UPROF" pcm hreport "$SCRATCH/old" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "no report-cumulative.csv either: exit 0, said, the page without the cumulative table" \
	bash -c "[ $rc = 0 ] && grep -q 'holds no report-cumulative.csv' '$SCRATCH/err' &&
		! grep -q 'class=\"cumulative\"' '$SCRATCH/old/report.html' && grep -q '<svg' '$SCRATCH/old/report.html'"

# ---- damaged files: one line, exit 2, nothing written ----
# damage NAME FILE SED-SCRIPT [PATTERN]: a copy of the profile directory with FILE edited
damage() {
	local name=$1 file=$2 script=$3 pat=$4 d=$SCRATCH/bad-$1
	rm -rf "$d"
	cp -r "$P" "$d"
	rm -f "$d/report.html"
	sed -i "$script" "$d/$file"
	expect_fail 2 "$name: refused" "$pat" "$UPROF" pcm hreport "$d"
	check "$name: nothing written" bash -c "[ ! -e '$d/report.html' ]"
}
damage truncated report-timeseries.csv '$ s/,[^,]*,$//' "report-timeseries.csv: line [0-9]+: .* cells where the header has"
damage "a bad value" report-timeseries.csv '$ s/^\([^,]*\),[^,]*,/\1,1.2.3,/' "line [0-9]+: the value '1.2.3' is not a number"
damage "the header cut" report-timeseries.csv '/^Timestamp,/ s/Multiplex Scale (enabled\/running),$//' "line [0-9]+: the three header rows have|does not end in"
damage "a run file of another version" report-run.tsv '1 s/\t1$/\t9/' "report-run.tsv: line 1: not 'uprof-pcm-run<TAB>1'"
damage "a run file that does not match" report-run.tsv 's/\tContext Switches$/\tSwitches/' "report-run.tsv does not match report-timeseries.csv: its metric 3 is 'Switches'"
damage "a cumulative row missing" report-cumulative.csv '/^Page Faults,/d' "report-cumulative.csv: 5 rows where the run has 5 metrics"
damage "a NUL byte" report-timeseries.csv '3 s/^/\x00/' "a NUL byte: not a pcm CSV file"
d=$SCRATCH/bad-link
cp -r "$P" "$d" && rm -f "$d/report.html"
mv "$d/report-timeseries.csv" "$SCRATCH/elsewhere.csv" && ln -s "$SCRATCH/elsewhere.csv" "$d/report-timeseries.csv"
expect_fail 2 "a symbolic link for the CSV: not followed" "report-timeseries.csv' is a symbolic link: not followed" \
	"$UPROF" pcm hreport "$d"
check "a symbolic link: nothing written" bash -c "[ ! -e '$d/report.html' ]"
mkdir -p "$SCRATCH/empty"
expect_fail 2 "a directory that is not pcm's" "'$SCRATCH/empty' is not a uprof pcm output directory: it holds neither report-timeseries.csv nor report.csv" \
	"$UPROF" pcm hreport "$SCRATCH/empty"
check "... nothing written there" bash -c "[ -z \"\$(ls -A '$SCRATCH/empty')\" ]"
expect_fail 2 "a directory that is not there" "cannot open '$SCRATCH/none': No such file" "$UPROF" pcm hreport "$SCRATCH/none"
expect_fail 2 "no directory" "give one directory" "$UPROF" pcm hreport
expect_fail 2 "hreport after options: a command in the wrong place" "'hreport' is a pcm command, not a program" \
	"$UPROF" pcm -m swi hreport "$P"

# ---- headless Chromium ----
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	ok "headless Chromium console # SKIP chromium is not installed (scripts/install-deps.sh installs it)"
else
	export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
	timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$SCRATCH/chrome" --enable-logging=stderr --v=0 --dump-dom \
		"file://$SCRATCH/prof-again.html" >"$SCRATCH/dom" 2>"$SCRATCH/console"
	check "Chromium loads hreport's page: the DOM has its charts, no console message ($(grep -m2 -i 'CONSOLE' "$SCRATCH/console"))" \
		bash -c "[ \$(grep -c '<svg' '$SCRATCH/dom') = \$(grep -c '<svg' '$SCRATCH/prof-again.html') ] &&
			[ \$(grep -c '<svg' '$SCRATCH/dom') -gt 5 ] && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/console'"
fi
echo "1..$_n"
