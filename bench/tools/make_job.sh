#!/usr/bin/env bash
# bench/tools/make_job.sh UPROF OUT N [SEED_JOB]: a job directory of N ranks under OUT, its
# path printed, for bench/mpi_scale.sh.
#
# What it is made of: one real job, collected here once (SEED_JOB, else Open MPI's mpirun -np 4
# of tests/targets/mpi_spin with `uprof collect --trace mpi`, each rank ~500-1100 CPU_TIME
# samples of spin_units, MPI's progress loop, libc and the kernel, with its mpi/<pid>.mpi),
# whose rank sessions are copied round-robin into rank-0 .. rank-(N-1). Each copy is made a
# rank of its own: job.ini lists it with its rank, a distinct pid and its local rank, its
# session.ini names that pid, and its .mpi file is renamed to the pid and says the rank, the
# pid and the world size N (the job report checks the rank against job.ini's).
#
# Why it stands for a real N-rank job on one host: report's cost per rank is reading its
# samples and naming their addresses in the files the rank ran (the program, libmpi and its
# plugins, libc, the kernel). The ranks of one real job on one host run the same files and
# sample the same functions, so the copies cost what distinct ranks would; what a copy does
# not vary (the sample addresses within those functions, the pids inside samples.data) is
# not what report's per-rank cost depends on. Collecting 1024 real ranks of ~1 s CPU each on
# this 2-CPU machine would take 20 minutes per job.
set -u
(($# == 3 || $# == 4)) || { echo "usage: $0 UPROF OUT N [SEED_JOB]" >&2; exit 2; }
U=$1 OUT=$2 N=$3 SEED=${4:-}
BUILD=${BUILD:-build}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
mkdir -p "$OUT" || exit 1
if [ -z "$SEED" ]; then
	T=$PWD/$BUILD/targets/mpi_spin.openmpi
	[ -x "$T" ] || { echo "$0: no $T (make)" >&2; exit 1; }
	rm -rf "$OUT/seed"
	timeout 300 mpirun --allow-run-as-root --oversubscribe -np 4 "$U" collect --trace mpi \
		-o "$OUT/seed" "$T" 300 >"$OUT/seed.log" 2>&1 || { cat "$OUT/seed.log" >&2; exit 1; }
	SEED=$(ls -d "$OUT"/seed/uprof-*-HPC_MPI_* | head -n1)
fi
[ -f "$SEED/job.ini" ] || { echo "$0: $SEED is not a job directory" >&2; exit 1; }
J=$OUT/uprof-mpi_spin-HPC_MPI_scale$N
rm -rf "$J"
mkdir -m 700 "$J" || exit 1
"$PY" - "$SEED" "$J" "$N" <<'EOF'
import configparser, os, re, shutil, struct, sys

seed, job, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ini = configparser.ConfigParser(interpolation=None)
ini.read(os.path.join(seed, "job.ini"))
seeds = sorted((int(s.split(".")[1]) for s in ini.sections() if s.startswith("rank.")))
lines = ["[job]", "format_version = 1", "id = scale%d" % n, "app = mpi_spin", "ranks = %d" % n, ""]
for r in range(n):
    src = ini["rank.%d" % seeds[r % len(seeds)]]
    pid = 100000 + r  # distinct, and no live process's (pid_max is 4 Mi here)
    sdir = os.path.join(job, "rank-%d" % r)
    shutil.copytree(os.path.join(seed, src["session"]), sdir)
    sini = os.path.join(sdir, "session.ini")
    text = open(sini).read()
    text = re.sub(r"(?m)^pids = .*$", "pids = %d" % pid, text)
    open(sini, "w").write(text)
    mdir = os.path.join(sdir, "mpi")
    for f in os.listdir(mdir):
        data = bytearray(open(os.path.join(mdir, f), "rb").read())
        # struct ses_mpi_file_header: rank at 16, size at 20, pid at 36 (lib/session/mpi.h)
        struct.pack_into("<ii", data, 16, r, n)
        struct.pack_into("<i", data, 36, pid)
        os.unlink(os.path.join(mdir, f))
        open(os.path.join(mdir, "%d.mpi" % pid), "wb").write(data)
    lines += ["[rank.%d]" % r, "session = rank-%d" % r, "host = %s" % src["host"],
              "pid = %d" % pid, "clock_offset_ns = %s" % src["clock_offset_ns"],
              "local_rank = %d" % r, ""]
open(os.path.join(job, "job.ini"), "w").write("\n".join(lines))
EOF
[ $? -eq 0 ] || exit 1
# the modes collect gives a job (0700 directories, 0600 files): report reads it as it would
find "$J" -type d -exec chmod 700 {} + && find "$J" -type f -exec chmod 600 {} +
echo "$J"
