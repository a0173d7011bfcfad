#!/usr/bin/env bash
# Issue 32: report -i JOBDIR --export sqlite writes the job's MPI data as tables in
# JOBDIR/report.db: uprof_mpi_ranks (RANK SUMMARY TABLE), uprof_mpi_calls (each rank's MPI
# FUNCTION SUMMARY TABLE (Rank N), report --detail), uprof_mpi_matrix (COMMUNICATION
# MATRIX) and uprof_mpi_sites (MPI CALL SITES PER RANK, every row with --mpi-top 0, and the
# site's Caller and Module from MPI CALL SITES), keyed by rank, times in ns; every row equal
# to report.csv's (the CSV's %g of the seconds). The other session exports stay refused over
# a job.
. "$(dirname "$0")/lib/common.sh"

if ! command -v mpirun >/dev/null || [ ! -x "$TGT/mpi_p2p.openmpi" ]; then
	ok "# SKIP no mpirun or $TGT/mpi_p2p.openmpi (scripts/install-deps.sh)"
	echo "1..$_n"
	exit 0
fi
timeout 300 mpirun --allow-run-as-root --oversubscribe -np 4 "$UPROF" collect --mpi --trace mpi \
	-o "$SCRATCH/j" "$TGT/mpi_p2p.openmpi" >"$SCRATCH/j.log" 2>&1
J=$(ls -d "$SCRATCH/j"/uprof-*-HPC_MPI_* 2>/dev/null | head -1)
check "a traced 4-rank job ($J)" [ -n "$J" ]
"$UPROF" report -i "$J" --detail --mpi-top 0 --export sqlite >/dev/null 2>"$SCRATCH/err"
rc=$?
check "report -i JOBDIR --detail --mpi-top 0 --export sqlite exits 0 ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
check "it names JOBDIR/report.db" grep -qx "Generated SQLite database file: $J/report.db" "$SCRATCH/err"
for t in ranks calls matrix sites; do
	sqlite3 -csv "$J/report.db" "select * from uprof_mpi_$t order by 1" >"$SCRATCH/$t.db"
done
"$PYTHON" - "$J/report.csv" "$SCRATCH" >"$SCRATCH/cmp" 2>&1 <<'PY'
import csv, re, sys
ls = open(sys.argv[1], newline="").read().split("\n")
d = sys.argv[2]
def rows_after(i):
    out = []
    for l in ls[i:]:
        if not l.strip():
            break
        out.append(l.split(", "))
    return out
def table(title):
    return rows_after(ls.index(title) + 2)
def g(ns):  # the CSV's %g of the seconds
    return "%g" % (int(ns) / 1e9)
def db(t):
    return list(csv.reader(open("%s/%s.db" % (d, t))))
bad = 0
# ranks: rank,pid,host,app,mpi,wait,init,fin,calls,sent,end,why
want = [[r[0], r[1], r[2], r[4], r[6], r[7], r[9], r[11], r[12], r[13]] for r in table("RANK SUMMARY TABLE")]
got = [[r[0], r[1], g(r[4]), g(r[5]), r[8], r[9], g(r[3]), g(r[6]), g(r[7]), r[10]] for r in db("ranks")]
bad += want != got
print("ranks: %s" % ("equal" if want == got else "differ: %s / %s" % (want, got)))
want = []
for i, l in enumerate(ls):
    m = re.match(r"MPI FUNCTION SUMMARY TABLE \(Rank (\d+)\)$", l)
    if m:
        want += [[m.group(1)] + r for r in rows_after(i + 2)]
got = [[r[1], r[2], r[3], g(r[4]), r[5], r[6]] for r in db("calls")]
bad += want != got
print("calls: %d rows %s" % (len(got), "equal" if want == got else "differ"))
want = [[r[0].split(" ---> ")[0], r[0].split(" ---> ")[1], r[1], r[3], r[5]] for r in table("COMMUNICATION MATRIX")]
got = [[r[1], r[2], g(r[3]), r[4], r[5]] for r in db("matrix")]
bad += want != got
print("matrix: %d rows %s" % (len(got), "equal" if want == got else "differ: %s / %s" % (want, got)))
nmatrix = len(got)
# sites: id,rank,site,function,place,line,caller,module,callers,calls,time,messages,bytes,min,max
want = sorted((r for r in table("MPI CALL SITES PER RANK (top 0 per rank)")), key=lambda r: (int(r[0]), int(r[1])))
def avg(m, b):
    return "%g" % (int(b) / int(m) if int(m) else 0.0)
got = [[r[1], r[2], r[3], '"%s"' % r[4], r[9], g(r[10]), r[11], r[12], r[13], avg(r[11], r[12]), r[14]] for r in db("sites")]
bad += want != got
print("sites: %d rows %s" % (len(got), "equal" if want == got else "differ: %s / %s" % (want[:3], got[:3])))
places = {}
for l in ls[ls.index("MPI CALL SITES") + 2:]:
    if not l.strip():
        break
    c = next(csv.reader([l], skipinitialspace=True))
    places[c[0]] = (c[3], c[4])
wrong = [r for r in db("sites") if places.get(r[2]) != (r[6], r[7]) or r[5] != (r[4].rsplit(":", 1)[1] if re.match(r".*:\d+$", r[4]) else "0")]
bad += len(wrong) > 0
print("site places: %d rows differ from MPI CALL SITES %s" % (len(wrong), wrong[:2]))
sys.exit(1 if bad or not nmatrix or not got else 0)
PY
rc=$?
sed 's/^/# /' "$SCRATCH/cmp"
check "uprof_mpi_ranks, uprof_mpi_calls, uprof_mpi_matrix and uprof_mpi_sites are report.csv's rows" [ $rc -eq 0 ]
check "every rank has its host" [ "$(sqlite3 "$J/report.db" "select count(*) from uprof_mpi_ranks where host = '$(hostname)'")" = 4 ]
expect_fail 2 "--export folded over a job stays refused" \
	"--export folded takes one session: give a rank's, -i .*/rank-<r> \(a job exports html, perfetto and sqlite\)" \
	"$UPROF" report -i "$J" --export folded

echo "1..$_n"
