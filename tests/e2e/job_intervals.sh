#!/usr/bin/env bash
# report --agg-interval over an MPI job (issue 33), Open MPI's and MPICH's: SAMPLES PER
# INTERVAL on the job's one time line, a column per rank. Checked against an oracle that
# shares no code with uprof: every CPU_TIME sample's time from perf script (--ns, each rank's samples.data), each
# rank's clock offset from job.ini and its profile start from its session.ini; the origin
# is the earliest selected rank's start in wall-clock time, and a sample's bucket is
# (its time + its rank's offset - origin) / step. Every (bucket, rank) cell must be the
# oracle's exactly, the total column the ranks' sum, the rows back to back from 0.
. "$(dirname "$0")/lib/common.sh"


# oracle.py JOB STEP_MS [RANK...]: exit 0 when report.csv's SAMPLES PER INTERVAL is the
# oracle's for those ranks (all of job.ini's when none are named); prints what differs
cat >"$SCRATCH/oracle.py" <<'PY'
import configparser, csv, os, subprocess, sys
job, step = sys.argv[1], int(sys.argv[2]) * 1000000
ini = configparser.ConfigParser(); ini.read(os.path.join(job, "job.ini"))
ranks = {int(s[5:]): (ini[s]["session"], ini[s].get("clock_offset_ns"))
         for s in ini.sections() if s.startswith("rank.")}
if sys.argv[3:]:
    ranks = {r: v for r, v in ranks.items() if str(r) in sys.argv[3:]}
ranks = {r: (sess, int(off)) for r, (sess, off) in ranks.items()}
start, times = {}, {}
for r, (sess, off) in ranks.items():
    d = os.path.join(job, sess)
    start[r] = next(int(l.split("=")[1]) for l in open(os.path.join(d, "session.ini"))
                    if l.startswith("start_mono_ns = "))
    out = subprocess.run(["perf", "script", "-i", os.path.join(d, "samples.data"), "--ns",
                          "-F", "time,event"], capture_output=True, text=True).stdout
    times[r] = []
    for l in out.splitlines():
        w = l.split()
        if len(w) >= 2 and w[1].startswith("cpu-clock"):
            s, ns = w[0].rstrip(":").split(".")
            times[r].append(int(s) * 1000000000 + int(ns))
origin = min(start[r] + ranks[r][1] for r in ranks)
want = {}
for r, ts in times.items():
    for t in ts:
        since = t + ranks[r][1] - origin
        b = since // step if step > 0 and since > 0 else 0
        want[(b, r)] = want.get((b, r), 0) + 1
ls = open(os.path.join(job, "report.csv"), newline="").read().split("\n")
i = next(i for i, l in enumerate(ls) if l.startswith('"SAMPLES PER INTERVAL'))
hdr = next(csv.reader([ls[i + 1]]))
cols = [int(h.split()[1]) for h in hdr[3:]]
got, bad, b = {}, [], 0
for l in ls[i + 2:]:
    if not l or not l[0].isdigit():
        break
    row = next(csv.reader([l]))
    if step > 0 and (abs(float(row[0]) - b * step / 1e9) > 1e-9 or abs(float(row[1]) - (b + 1) * step / 1e9) > 1e-9):
        bad.append(("edges", b, row[0], row[1]))
    vals = [int(x) for x in row[3:]]
    if int(row[2]) != sum(vals):
        bad.append(("total", b, row[2]))
    for r, v in zip(cols, vals):
        if v:
            got[(b, r)] = v
    b += 1
diff = sorted((k, want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)
              if want.get(k, 0) != got.get(k, 0))
n = sum(len(t) for t in times.values())
print(f"# {os.path.basename(job.rstrip('/'))} step {sys.argv[2]} ms: columns {cols}, {b} rows, "
      f"{n} samples; wrong rows {bad[:5]}; cells differing (bucket, rank, oracle, report) {diff[:8]}")
sys.exit(1 if bad or diff or sorted(cols) != sorted(ranks) or not n or (step == 0 and b != 1) else 0)
PY
oracle() { "$PYTHON" "$SCRATCH/oracle.py" "$@"; }
# colsums.py REPORT_CSV: "RANK:SUM ..." of SAMPLES PER INTERVAL's rank columns
cat >"$SCRATCH/colsums.py" <<'PY'
import csv, sys
ls = open(sys.argv[1], newline="").read().split("\n")
i = next(i for i, l in enumerate(ls) if l.startswith('"SAMPLES PER INTERVAL'))
hdr, rows = next(csv.reader([ls[i + 1]])), []
for l in ls[i + 2:]:
    if not l or not l[0].isdigit():
        break
    rows.append([int(x) for x in next(csv.reader([l]))[3:]])
print(" ".join(f"{h.split()[1]}:{sum(r[c] for r in rows)}" for c, h in enumerate(hdr[3:])))
PY

# job_checks FAMILY LAUNCHER...: a 3-rank job of mpi_spin.FAMILY, and its buckets
job_checks() {
	local fam=$1 J sums ranks; shift
	timeout 300 "$@" -np 3 "$UPROF" collect --mpi -o "$SCRATCH/$fam" "$TGT/mpi_spin.$fam" 100 \
		>"$SCRATCH/$fam.log" 2>&1
	J=$(session_in "$SCRATCH/$fam")
	check "$fam: a 3-rank job was collected" [ -f "$J/job.ini" ]
	"$UPROF" report -i "$J" --agg-interval 100 >/dev/null 2>"$SCRATCH/err"
	check "$fam: report -i JOB --agg-interval 100 exits 0" [ $? -eq 0 ]
	check "$fam: SAMPLES PER INTERVAL: the total, then a column per rank" \
		grep -qx 'INTERVAL START (seconds),INTERVAL END (seconds),"CPU_TIME (samples)",RANK 0,RANK 1,RANK 2' "$J/report.csv"
	check "$fam: --agg-interval 100: every (100 ms, rank) cell is the oracle's; the total the ranks' sum" oracle "$J" 100
	"$UPROF" report -i "$J" --agg-interval 7 >/dev/null 2>&1
	check "$fam: --agg-interval 7 (no multiple of the timer's 1 ms phase): every cell the oracle's" oracle "$J" 7
	"$UPROF" report -i "$J" --agg-interval 0 >/dev/null 2>&1
	check "$fam: --agg-interval 0: one row, each rank's every sample" oracle "$J" 0
	# a selection: its own origin (the earliest selected rank's start), its columns only
	"$UPROF" report -i "$J" --rank 1,2 --agg-interval 50 >/dev/null 2>&1
	check "$fam: --rank 1,2 --agg-interval 50: ranks 1 and 2 only, from the earlier of their starts" oracle "$J" 50 1 2
	# each rank's column sums to its SAMPLES in the job's MPI RANKS table
	"$UPROF" report -i "$J" --agg-interval 100 >/dev/null 2>&1
	sums=$("$PYTHON" "$SCRATCH/colsums.py" "$J/report.csv")
	ranks=$(csvq "$J/report.csv" "MPI RANKS" | awk -F'\t' '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $6 }')
	check "$fam: each rank's column sums to its SAMPLES in MPI RANKS ($sums; $ranks)" [ -n "$sums" -a "$sums" = "$ranks" ]
	# a rank whose clock was not recorded (no offset in job.ini, no start_epoch_ns in its
	# session.ini): no column, its samples counted off the line, the others as before
	[ "$fam" = openmpi ] || return 0
	local C=$SCRATCH/noclock n2
	cp -r "$J" "$C"
	"$PYTHON" - "$C" <<'PY'
import re, sys
d = sys.argv[1]
t = open(f"{d}/job.ini").read()
t = re.sub(r"(\[rank\.2\][^\[]*?)clock_offset_ns = -?\d+\n", r"\1", t, flags=re.S)
open(f"{d}/job.ini", "w").write(t)
s = open(f"{d}/rank-2/session.ini").read()
open(f"{d}/rank-2/session.ini", "w").write(re.sub(r"^start_epoch_ns = .*\n", "", s, flags=re.M))
PY
	"$UPROF" report -i "$C" --agg-interval 100 >/dev/null 2>&1
	n2=$(csvq "$C/report.csv" "MPI RANKS" | awk -F'\t' '$1 == 2 { print $6 }')
	check "$fam: a rank without a clock has no column" \
		grep -qx 'INTERVAL START (seconds),INTERVAL END (seconds),"CPU_TIME (samples)",RANK 0,RANK 1' "$C/report.csv"
	check "$fam: its $n2 samples are said off the time line" \
		grep -qx "Samples Off The Time Line:,\"$n2 of ranks whose clock was not recorded: in no row\"" "$C/report.csv"
	check "$fam: the other ranks' cells are the oracle's" oracle "$C" 100 0 1
}

if command -v mpirun.openmpi >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ]; then
	job_checks openmpi mpirun.openmpi --allow-run-as-root --oversubscribe
else
	ok "Open MPI job # SKIP mpirun.openmpi or mpi_spin.openmpi is missing (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_spin.mpich" ]; then
	job_checks mpich mpirun.mpich
else
	ok "MPICH job # SKIP mpirun.mpich or mpi_spin.mpich is missing (scripts/install-deps.sh)"
fi
exit 0
