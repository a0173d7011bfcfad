#!/usr/bin/env bash
# Each rank's achieved sampling rate in the job report, and why a low one is low (issue
# 29). CPU_TIME's timer stops when its task is switched out and restarts once it is back,
# so a switch's own CPU time is never sampled: ranks of separate profiles that take turns
# on one CPU lose it at every switch (bench/switch_cost.sh). A job of two such ranks (the
# launcher's variables set by hand, both pinned to one CPU, yielding it to each other) and
# real Open MPI and MPICH jobs: MPI RANK SAMPLING RATE must hold, per rank, the rate its
# session measured (samples over its CPU time), the context switches collect recorded, the
# flag exactly when the rate is under 90 % of the asked one, and a cause whose numbers are
# the session's.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
CPU=$(($(nproc) - 1))

# rate_rows JOB: MPI RANK SAMPLING RATE's rows, tab-separated, by rank
rate_rows() { csvq "$1/report.csv" "MPI RANK SAMPLING RATE" | sort -n; }

# rate_checks WHAT JOB NRANKS: each row against its rank's session.ini
rate_checks() {
	local what=$1 J=$2 n=$3
	"$UPROF" report -i "$J" >/dev/null 2>&1
	check "$what: report exits 0" [ $? -eq 0 ]
	rate_rows "$J" >"$SCRATCH/rates"
	check "$what: one rate row per rank ($(cut -f1 "$SCRATCH/rates" | tr '\n' ' '))" \
		[ "$(cut -f1 "$SCRATCH/rates" | tr '\n' ' ')" = "$(seq 0 $((n - 1)) | tr '\n' ' ')" ]
	check "$what: each rank's rate, switches, flag and cause are its session's" \
		"$PYTHON" - "$SCRATCH/rates" "$J" <<'EOF'
import re, sys
rows, job = sys.argv[1], sys.argv[2]
bad = []
for line in open(rows):
    f = line.rstrip("\n").split("\t")
    r, hz, asked, share, sw, low, cause = int(f[0]), float(f[2]), float(f[3]), float(f[4]), int(f[5]), f[6], f[7]
    ini = dict(l.split(" = ", 1) for l in open("%s/rank-%d/session.ini" % (job, r)).read().split("\n") if " = " in l)
    cpu, n = int(ini["cpu_ns"]), int(ini["samples"])
    want_sw = int(ini.get("voluntary_switches", 0)) + int(ini.get("involuntary_switches", 0))
    print("# rank %d: %d samples in %.1f ms of CPU: %.1f Hz (%.1f %%), %d switches%s" % (r, n, cpu / 1e6, hz, share, sw, "; " + cause if cause else ""))
    if abs(hz - n / (cpu / 1e9)) > 0.1 or asked != 1000.0 or abs(share - 100 * hz / asked) > 0.1:
        bad.append("rank %d: %.1f Hz of %.1f for %d samples in %d ns" % (r, hz, asked, n, cpu))
    if sw != want_sw or want_sw == 0:
        bad.append("rank %d: %d switches, session.ini %d" % (r, sw, want_sw))
    if (low == "yes") != (hz < 0.9 * asked) or (low == "yes") != bool(cause):
        bad.append("rank %d: flag %s cause %r at %.1f Hz" % (r, low, cause, hz))
    m = re.match(r"([0-9.]+) ms of its ([0-9.]+) s of CPU unsampled over (\d+) context switches \((\d+) voluntary, (\d+) involuntary\): ([0-9.]+) us a switch", cause)
    if m:
        ms, sw_c = float(m.group(1)), int(m.group(3))
        if abs(ms - (cpu / 1e6 - n)) > 0.1 or sw_c != want_sw or abs(float(m.group(6)) - ms * 1e3 / sw_c) > 0.1:
            bad.append("rank %d: cause %r against %d samples, %d ns, %d switches" % (r, cause, n, cpu, want_sw))
if bad:
    print("# " + "; ".join(bad))
sys.exit(1 if bad else 0)
EOF
}

# two "ranks" of one job on one CPU, each yielding it to the other every 1000 iterations
for r in 0 1; do
	PMI_RANK=$r PMI_SIZE=2 UPROF_MPI_JOB=yield taskset -c "$CPU" "$UPROF" collect --mpi \
		-o "$SCRATCH/y" "$TGT/switch_yield" 0.5 1000 >/dev/null 2>"$SCRATCH/y$r.err" &
done
wait
JY=$SCRATCH/y/uprof-switch_yield-HPC_MPI_yield
check "two yielding ranks: both complete" [ "$(grep -lx 'status = complete' "$JY"/rank-*/session.ini | wc -l)" -eq 2 ]
for r in 0 1; do
	own=$(awk '/^switches / { print $2 + $3 }' "$SCRATCH/y$r.err")
	rec=$(awk -F' = ' '/^(voluntary|involuntary)_switches/ { s += $2 } END { print s + 0 }' \
		"$JY/rank-$r/session.ini")
	# the target's count is taken just before it exits, collect's (wait4) after: a few more
	check "rank $r: session.ini's switches ($rec) are the target's own ($own) and its exit's" \
		"$PYTHON" -c "import sys; sys.exit(0 if 0 < $own <= $rec <= $own + 50 else 1)"
done
rate_checks "two yielding ranks" "$JY" 2

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ]; then
	timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect --trace mpi -o "$SCRATCH/o" \
		"$TGT/mpi_spin.openmpi" 100 >"$SCRATCH/o.log" 2>&1
	check "Open MPI: 4 ranks exit 0" [ $? -eq 0 ]
	rate_checks "Open MPI" "$(ls -d "$SCRATCH"/o/uprof-*-HPC_MPI_* | head -n1)" 4
else
	ok "Open MPI rates # SKIP no mpirun or $TGT/mpi_spin.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_spin.mpich" ]; then
	timeout 300 mpirun.mpich -np 2 "$UPROF" collect --trace mpi -o "$SCRATCH/m" \
		"$TGT/mpi_spin.mpich" 100 >"$SCRATCH/m.log" 2>&1
	check "MPICH: 2 ranks exit 0" [ $? -eq 0 ]
	rate_checks "MPICH" "$(ls -d "$SCRATCH"/m/uprof-*-HPC_MPI_* | head -n1)" 2
else
	ok "MPICH rates # SKIP no mpirun.mpich or $TGT/mpi_spin.mpich (scripts/install-deps.sh)"
fi
echo "1..$_n"
