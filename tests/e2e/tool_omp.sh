#!/usr/bin/env bash
# Issue 32, Must show 3 (OpenMP): a tool of API 1.2 over a --trace openmp session gets the
# report's OpenMP slices through openmp_region. tests/tool/ompslices.c sums them per
# (site, what); its numbers must be report.csv's: each parallel region's instances, and
# per wait type the seconds of the OpenMP WAITS table's "all" rows. A tool that declares
# API 1.1 and sets the slot (reserved there) is refused, never called.
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
T=$TGT/tools/ompslices.so
if [ ! -x "$TGT/omp_waits" ]; then
	skip "clang or LLVM libomp missing: omp_waits not built"
	echo "# $skipped skipped"
	echo "1..$_n"
	exit 0
fi
KMP_BLOCKTIME=0 OMP_WAIT_POLICY=passive "$UPROF" collect --trace openmp --openmp-scope full \
	-o "$SCRATCH/w" "$TGT/omp_waits" >/dev/null 2>&1
S=$(session_in "$SCRATCH/w")
"$UPROF" report -i "$S" --tool "$T" >/dev/null 2>"$SCRATCH/err"
check "report --tool ompslices.so exits 0" [ $? -eq 0 ]
check "the tool's section is in report.csv" grep -q '^"OPENMP SLICES (Tool - ompslices)"' "$S/report.csv"
"$PYTHON" - "$S/report.csv" >"$SCRATCH/cmp" 2>&1 <<'PY'
import csv, sys
ls = open(sys.argv[1], newline="").read().split("\n")
def table(start, header_prefix):
    i = next(i for i, l in enumerate(ls) if l.startswith(start))
    while not ls[i].startswith(header_prefix):
        i += 1
    hdr = next(csv.reader([ls[i]]))
    rows = []
    for l in ls[i + 1:]:
        if not l.strip():
            break
        rows.append(dict(zip(hdr, next(csv.reader([l])))))
    return rows
regions = table("OpenMP PARALLEL-REGION METRIC", "Region,")
waits = [r for r in table("OpenMP WAITS", "Region,") if r["ThreadNum"] == "all"]
tool = table('"OPENMP SLICES (Tool', "Site,")
col = {"implicit barrier": "Implicit Barrier(seconds)", "explicit barrier": "Explicit Barrier(seconds)",
       "worksharing barrier": "Worksharing Barrier(seconds)", "taskwait": "Taskwait(seconds)",
       "taskgroup": "Taskgroup(seconds)", "lock wait": "Lock(seconds)", "critical wait": "Critical(seconds)",
       "ordered wait": "Ordered(seconds)", "reduction": "Reduction(seconds)"}
bad = 0
for r in regions:
    got = sum(int(t["Instances"]) for t in tool if t["Site"] == r["Region"] and t["Kind"] == "1")
    ok = got == int(r["Instances"])
    bad += not ok
    print("%s instances: report %s, tool %d%s" % (r["Region"], r["Instances"], got, "" if ok else "  <- differ"))
for what, c in col.items():
    want = sum(float(w[c]) for w in waits)
    rows = [t for t in tool if t["Kind"] == "2" and t["What"] == what]
    got = sum(float(t["Seconds"]) for t in rows)
    ok = abs(got - want) <= 0.0001 * (len(rows) + 1) + 1e-6 * want  # 4 decimals per tool row
    bad += not ok
    print("%s: report %.6f s, tool %.4f s (%d rows)%s" % (what, want, got, len(rows), "" if ok else "  <- differ"))
print("regions", len(regions), "wait types", len(col))
sys.exit(1 if bad or not regions else 0)
PY
rc=$?
sed 's/^/# /' "$SCRATCH/cmp"
check "each region's instances and each wait type's seconds are report.csv's ($(tail -1 "$SCRATCH/cmp"))" [ $rc -eq 0 ]
expect_fail 1 "a tool declaring API 1.1 that sets openmp_region (reserved there) is refused" \
	"tool .*ompslices11.so: refused: sets openmp_region, a slot its tool API 1.1 reserves" \
	"$UPROF" info --tool "$TGT/tools/ompslices11.so"
"$UPROF" report -i "$S" --tool "$TGT/tools/wants.so" >/dev/null 2>&1
check "a tool without openmp_region still runs over the traced session" [ $? -eq 0 ]

echo "# $skipped skipped"
echo "1..$_n"
