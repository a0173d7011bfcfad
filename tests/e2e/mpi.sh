#!/usr/bin/env bash
# Issue 14: MPI jobs. collect --mpi under Open MPI's and MPICH's launchers (one job
# directory, one complete session per rank, every rank naming the job directory), and
# report over the job. Each MPI family missing here is skipped, counted, with the reason.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
have_ompi() { command -v mpirun >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ]; }
have_mpich() { command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_spin.mpich" ]; }
UNIT_MS=${UNIT_MS:-300}

# one_job OUT LAUNCHER...: the job directory under OUT (exactly one), or ""
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }

job_checks() { # WHAT OUT LOG NRANKS
	local what=$1 out=$2 log=$3 n=$4 J paths complete=0
	J=$(one_job "$out")
	check "$what: one job directory ($(ls "$out" | tr '\n' ' '))" [ -n "$J" ]
	[ -n "$J" ] || return 1
	check "$what: job directory mode 0700" [ "$(stat -c %a "$J")" = 700 ]
	check "$what: job.ini lists $n ranks" [ "$(grep -c '^\[rank\.' "$J/job.ini")" -eq "$n" ]
	check "$what: job.ini says the world size" grep -qx "ranks = $n" "$J/job.ini"
	for r in $(seq 0 $((n - 1))); do
		grep -qx 'status = complete' "$J/rank-$r/session.ini" 2>/dev/null && complete=$((complete + 1))
	done
	check "$what: $n complete sessions rank-0..rank-$((n - 1)) ($complete)" [ "$complete" -eq "$n" ]
	paths=$(sed -n 's/^Generated data files path: //p' "$log" | sort | uniq -c)
	check "$what: every rank printed the job directory ($paths)" \
		[ "$(echo "$paths" | awk '{print $1}')" = "$n" -a "$(echo "$paths" | awk '{print $2}')" = "$J" ]
}

if have_ompi; then
	timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect --mpi -o "$SCRATCH/o4" \
		"$TGT/mpi_spin.openmpi" "$UNIT_MS" >"$SCRATCH/o4.log" 2>&1
	check "Open MPI: 4 ranks under collect --mpi exit 0" [ $? -eq 0 ]
	job_checks "Open MPI" "$SCRATCH/o4" "$SCRATCH/o4.log" 4
	J4=$(one_job "$SCRATCH/o4")
	check "Open MPI: the job id is the launcher's (PMIX_NAMESPACE)" \
		grep -qE '^id = [0-9]+$' "$J4/job.ini"
else
	ok "Open MPI jobs # SKIP no mpirun or $TGT/mpi_spin.openmpi (scripts/install-deps.sh)"
fi

if have_mpich; then
	timeout 300 mpirun.mpich -np 2 "$UPROF" collect --mpi -o "$SCRATCH/m2" \
		"$TGT/mpi_spin.mpich" 50 >"$SCRATCH/m2.log" 2>&1
	check "MPICH: 2 ranks under collect --mpi exit 0" [ $? -eq 0 ]
	job_checks "MPICH" "$SCRATCH/m2" "$SCRATCH/m2.log" 2
	check "MPICH: the job id is Hydra's KVS name (asked over PMI_FD)" \
		grep -qE '^id = kvs_[0-9]+_' "$(one_job "$SCRATCH/m2")/job.ini"
else
	ok "MPICH jobs # SKIP no mpirun.mpich or $TGT/mpi_spin.mpich (scripts/install-deps.sh)"
fi

# outside a launcher: one message, nothing created
expect_fail 2 "--mpi outside a launcher" "not started by an MPI launcher" \
	env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID \
	"$UPROF" collect --mpi -o "$SCRATCH/none" "$TGT/demo" 10
check "--mpi outside a launcher creates nothing" [ ! -e "$SCRATCH/none" ]
expect_fail 1 "--mpi with a rank but no job id" "no job id" \
	env -u PMI_FD -u PMIX_NAMESPACE -u OMPI_MCA_ess_base_jobid -u SLURM_JOB_ID -u PMI_KVSNAME \
	-u UPROF_MPI_JOB PMI_RANK=0 PMI_SIZE=1 "$UPROF" collect --mpi -o "$SCRATCH/nojob" "$TGT/demo" 10
PMI_RANK=3 PMI_SIZE=2 UPROF_MPI_JOB=x expect_fail 1 "--mpi with a rank past the size" \
	"rank 3 of 2 ranks" "$UPROF" collect --mpi -o "$SCRATCH/past" "$TGT/demo" 10
# a rank number taken twice (the job id of an earlier job) is refused, the first kept
PMI_RANK=0 PMI_SIZE=1 UPROF_MPI_JOB=twice "$UPROF" collect --mpi -o "$SCRATCH/tw" "$TGT/demo" 10 \
	>/dev/null 2>&1
PMI_RANK=0 PMI_SIZE=1 UPROF_MPI_JOB=twice expect_fail 1 "the same rank of one job twice" \
	"has a rank 0 already" "$UPROF" collect --mpi -o "$SCRATCH/tw" "$TGT/demo" 10
check "the first rank 0 stays whole" grep -qx 'status = complete' \
	"$SCRATCH/tw/uprof-demo-HPC_MPI_twice/rank-0/session.ini"
expect_fail 2 "--mpi with -p" "not -p/-a" "$UPROF" collect --mpi -p $$ -d 1

echo "1..$_n"
