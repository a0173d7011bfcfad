#!/usr/bin/env bash
# uprof pcm compare <baseline>,<other>: two cumulative tables side by side. On written
# tables, the exact comparison (values, change, change in % of the baseline; empty where a
# side lacks a cell or the baseline is 0; what only the other has, last). On two real runs
# (pcm -C -o, and a pcm profile directory): every metric of both, each side's value as its
# file has it. Damaged inputs (truncated, corrupted, no table, missing) and a missing
# second run: one line, exit 2.
. "$(dirname "$0")/lib/common.sh"

cat >"$SCRATCH/a.csv" <<'CSV'
System:,AMD EPYC
Profile Time:,2026/12/04 16:06:19:022
Metric,System (Aggregated),CCX-0
IPC (Sys + User),1.25,2.00
Page Faults,80,0
Only Baseline,1,
CSV
mkdir "$SCRATCH/b"
cat >"$SCRATCH/b/report-cumulative.csv" <<'CSV'
Metric,System (Aggregated),CCX-0
IPC (Sys + User),1.50,1.00
Page Faults,100,7
Only Other,3,4
CSV
"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH/b" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "exit 0, nothing on stderr" [ $rc = 0 -a ! -s "$SCRATCH/err" ]
check "the header and both runs' paths (a directory's report-cumulative.csv)" bash -c "grep -qx 'Baseline:,$SCRATCH/a.csv' '$SCRATCH/out' && grep -qx 'Other:,$SCRATCH/b/report-cumulative.csv' '$SCRATCH/out' && grep -qx 'Metric,Component,Baseline,Other,Change,Change (%)' '$SCRATCH/out'"
check "exact rows: values, change, % of the baseline; empty where a side or a 0 baseline lacks it" [ "$(sed -n '/^Metric,Component/,$p' "$SCRATCH/out" | tail -n +2)" = "IPC (Sys + User),System (Aggregated),1.25,1.50,0.25,20.00
IPC (Sys + User),CCX-0,2.00,1.00,-1.00,-50.00
Page Faults,System (Aggregated),80.00,100.00,20.00,25.00
Page Faults,CCX-0,0.00,7.00,7.00,
Only Baseline,System (Aggregated),1.00,,,
Only Baseline,CCX-0,,,,
Only Other,System (Aggregated),,3.00,,
Only Other,CCX-0,,4.00,," ]
"$UPROF" pcm compare "$SCRATCH/a.csv" "$SCRATCH/b" -o "$SCRATCH/cmp.csv" 2>"$SCRATCH/err"
check "two words and -o: the same table in the file, its path said" bash -c "cmp -s '$SCRATCH/out' '$SCRATCH/cmp.csv' && grep -qx 'Generated data file path: $SCRATCH/cmp.csv' '$SCRATCH/err'"

# two real runs of this machine
"$UPROF" pcm -m swi -C -o "$SCRATCH/r1.csv" -- sleep 0.1 >/dev/null 2>&1
"$UPROF" pcm profile -m swi -I 50 -O "$SCRATCH/r2" -- sleep 0.1 >/dev/null 2>&1
"$UPROF" pcm compare "$SCRATCH/r1.csv,$SCRATCH/r2" >"$SCRATCH/real" 2>"$SCRATCH/err"
rc=$?
check_sh "real runs: exit 0, a row per metric of both, each side's value as its file has it" '[ $rc = 0 ] && "$PYTHON" - "$SCRATCH" <<"PY"
import csv, sys
d = sys.argv[1]
def table(p):
    rows = list(csv.reader(open(p)))
    h = next(i for i, r in enumerate(rows) if r and r[0] == "Metric")
    return {r[0]: r[1] for r in rows[h + 1:] if len(r) == 2}
a, b = table(d + "/r1.csv"), table(d + "/r2/report-cumulative.csv")
out = list(csv.reader(open(d + "/real")))
h = out.index(["Metric", "Component", "Baseline", "Other", "Change", "Change (%)"])
rows = {r[0]: r for r in out[h + 1:]}
assert set(rows) == set(a) == set(b) and len(a) == 6, (rows.keys(), a.keys())
for m, r in rows.items():
    assert r[1] == "System (Aggregated)"
    assert float(r[2]) == float(a[m]) and float(r[3]) == float(b[m]), (m, r, a[m], b[m])
    assert abs(float(r[4]) - (float(b[m]) - float(a[m]))) <= 0.006, r
PY'

# damaged inputs
# cut after "Page Faults,1"
head -c 73 "$SCRATCH/b/report-cumulative.csv" >"$SCRATCH/trunc.csv"
expect_fail 2 "truncated in a row" "^uprof pcm compare: .*trunc.csv: line 3: 2 cells where the header has 3" \
	"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH/trunc.csv"
sed 's/1.50/1.5x/' "$SCRATCH/b/report-cumulative.csv" >"$SCRATCH/bad.csv"
expect_fail 2 "a corrupted value" "^uprof pcm compare: .*bad.csv: line 2: the value '1.5x' is not a number" \
	"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH/bad.csv"
printf 'Timestamp,IPC\n10:00:00:000,1.0,\n' >"$SCRATCH/ts.csv"
expect_fail 2 "a timeseries without a cumulative table" "^uprof pcm compare: .*ts.csv: no cumulative table" \
	"$UPROF" pcm compare "$SCRATCH/ts.csv,$SCRATCH/a.csv"
head -c 64 /dev/urandom | tr -d '\n' >"$SCRATCH/noise.csv"
expect_fail 2 "random bytes" "^uprof pcm compare: .*noise.csv: " \
	"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH/noise.csv"
expect_fail 2 "a run that is not there" "^uprof pcm compare: cannot read '$SCRATCH/none.csv'" \
	"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH/none.csv"
expect_fail 2 "a directory without a table" "^uprof pcm compare: '$SCRATCH' holds neither report-cumulative.csv nor report.csv" \
	"$UPROF" pcm compare "$SCRATCH/a.csv,$SCRATCH"
expect_fail 2 "one run only" "^uprof pcm compare: give the two runs" "$UPROF" pcm compare "$SCRATCH/a.csv"
exit 0
