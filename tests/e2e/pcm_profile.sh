#!/usr/bin/env bash
# uprof pcm profile: one run written every way into -O: report-timeseries.csv,
# report-cumulative.csv, report.json and report.html. The JSON holds the CSVs' own numbers
# (every row and cell, the cumulative table); the run's facts hold across them (the page
# faults of the rows add up exactly to the cumulative count, and cover the pages the
# program touched). -o, -C and a missing -O are refused in one line.
. "$(dirname "$0")/lib/common.sh"

O=$SCRATCH/prof
"$UPROF" pcm profile -m swi -I 50 -O "$O" -- "$PYTHON" -c 'import mmap, time; m = mmap.mmap(-1, 4096 * 2048); m.madvise(mmap.MADV_NOHUGEPAGE); m[::4096] = b"x" * 2048; time.sleep(0.2)' >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "exit 0, the four files in -O and report-run.tsv (for pcm hreport)" bash -c "[ $rc = 0 ] && [ \"\$(ls '$O' | paste -sd' ')\" = 'report-cumulative.csv report-run.tsv report-timeseries.csv report.html report.json' ]"
check "stderr names each file it generated" [ "$(grep -c "^Generated .* path: $O/report" "$SCRATCH/err")" = 4 ]
check "nothing of uprof's on the program's stdout" [ ! -s "$SCRATCH/out" ]
check "report-cumulative.csv: the metadata, then the cumulative table" bash -c "grep -q '^Sample interval (ms):,50' '$O/report-cumulative.csv' && grep -q '^Metric,System (Aggregated)$' '$O/report-cumulative.csv' && grep -q '^Page Faults,[0-9]*$' '$O/report-cumulative.csv'"
check "report-timeseries.csv: the three header rows and no cumulative table" bash -c "grep -q '^,OS METRICS' '$O/report-timeseries.csv' && grep -q '^Timestamp,CPU Utilization' '$O/report-timeseries.csv' && ! grep -q '^Metric,' '$O/report-timeseries.csv'"
check_sh "report.json: the CSVs' numbers, every row and cell; the rows' page faults add up to the run's, at least the 2048 pages touched" '"$PYTHON" - "$O" <<"PY"
import csv, json, sys
d = sys.argv[1]
j = json.load(open(d + "/report.json"))
ts = list(csv.reader(open(d + "/report-timeseries.csv")))
head = next(i for i, r in enumerate(ts) if r and r[0] == "Timestamp")
rows = [r for r in ts[head + 1:] if r and r[0][:1].isdigit()]
cols = j["timeseries"]["columns"]
assert [c["metric"] for c in cols] == ts[head][1:-1], (cols, ts[head])
assert len(rows) == len(j["timeseries"]["rows"]) == j["timeseries"]["rows_written"] >= 1
for r, jr in zip(rows, j["timeseries"]["rows"]):
    assert r[0] == jr["timestamp"]
    for cell, v in zip(r[1:-1], jr["values"]):
        assert (cell == "" and v is None) or float(cell) == v, (cell, v)
cum = {r[0]: r[1] for r in csv.reader(open(d + "/report-cumulative.csv")) if len(r) == 2}
for m in j["cumulative"]:
    v = m["values"]["System (Aggregated)"]
    assert (cum[m["metric"]] == "" and v is None) or float(cum[m["metric"]]) == v, m
pf = [c["metric"] for c in cols].index("Page Faults")
total = sum(jr["values"][pf] for jr in j["timeseries"]["rows"])
assert total == float(cum["Page Faults"]) >= 2048, (total, cum["Page Faults"])
PY'
check "report.html: a page" grep -q '<html' "$O/report.html"

D=$("$UPROF" pcm profile -m swi --dry-run 2>&1)
check "--dry-run needs no -O: the counters it would open" grep -q '^# uprof pcm --dry-run: ' <<<"$D"
expect_fail 2 "profile -o" "^uprof pcm profile: profile writes four files .*give -O <dir>, not -o" \
	"$UPROF" pcm profile -m swi -d 1 -o "$SCRATCH/x.csv"
expect_fail 2 "profile without -O" "^uprof pcm profile: give the directory .* -O <dir>" \
	"$UPROF" pcm profile -m swi -d 1
expect_fail 2 "profile -C" "^uprof pcm profile: .*no -C" \
	"$UPROF" pcm profile -m swi -C -d 1 -O "$SCRATCH/c"
expect_fail 2 "profile after the options: a command in the wrong place" "'profile' is a pcm command, not a program: put it first" \
	"$UPROF" pcm -m swi -d 1 profile
exit 0
