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

# ---- report over the job (Must show 1, first half) ----
if [ -n "${J4:-}" ]; then
	"$UPROF" report -i "$J4" >"$SCRATCH/r4.out" 2>"$SCRATCH/r4.err"
	check "report over the job exits 0" [ $? -eq 0 ]
	check "report names the job and its 4 ranks" grep -q "4 of 4 ranks reported, on 1 host" "$SCRATCH/r4.err"
	R=$J4/report.csv
	check "snapshot: Number Of MPI ranks 4" grep -qx 'Number Of MPI ranks,"4"' "$R"
	check "snapshot: Number Of MPI hosts 1" grep -qx 'Number Of MPI hosts,"1"' "$R"
	check "MPI Ranks Per Node: $(hostname),4" grep -qx "$(hostname),4" "$R"
	procs=$(csvq "$R" "HOTTEST PROCESSES" | awk -F'\t' '{print $2}' | sort | tr '\n' ' ')
	check "each rank is a process row with its Rank ($procs)" [ "$procs" = "0 1 2 3 " ]
	# rank r's spin_units, from a report of that rank alone (--rank), in units of rank 0's
	total=0 spins=""
	for r in 0 1 2 3; do
		"$UPROF" report -i "$J4" --rank $r --report-output "$SCRATCH/rank$r.csv" >/dev/null 2>&1
		v=$(csvq "$SCRATCH/rank$r.csv" "HOTTEST FUNCTIONS" | awk -F'\t' '$1=="spin_units"{print $2}')
		spins+="${v:-0} "
		n=$(csvq "$SCRATCH/rank$r.csv" "HOTTEST PROCESSES" | grep -c .)
		check "--rank $r: one process, rank $r's" [ "$n" -eq 1 ] && \
			csvq "$SCRATCH/rank$r.csv" "HOTTEST PROCESSES" | awk -F'\t' -v r=$r '$2!=r{exit 1}'
	done
	echo "# spin_units CPU_TIME per rank: $spins(unit ${UNIT_MS} ms of CPU time)"
	check "rank CPU times 1:2:3:4 within 10 % ($spins)" python3 -c "
import sys
v=[float(x) for x in sys.argv[1:]]
u=[x/(i+1) for i,x in enumerate(v)]
m=sum(u)/4
sys.exit(0 if m>0 and all(abs(x-m)<=0.10*m for x in u) else 1)" $spins
	merged=$(csvq "$R" "HOTTEST FUNCTIONS" | awk -F'\t' '$1=="spin_units"{print $2}')
	check "the merged spin_units is the sum of the ranks' ($merged)" python3 -c "
import sys; v=[float(x) for x in sys.argv[2:]]; sys.exit(0 if abs(sum(v)-float(sys.argv[1]))<=0.0005*len(v) else 1)" \
		"${merged:-0}" $spins
	csvq "$SCRATCH/rank0.csv" --key "MPI Ranks Reported" >"$SCRATCH/sel" 2>&1
	check "--rank 0 reports rank 0 only ($(cat "$SCRATCH/sel"))" grep -qx 0 "$SCRATCH/sel"
	"$UPROF" report -i "$J4" --rank 1-2 --report-output "$SCRATCH/r12.csv" >/dev/null 2>&1
	check "--rank 1-2: ranks 1-2" [ "$(csvq "$SCRATCH/r12.csv" --key "MPI Ranks Reported")" = "1-2" ]
	"$UPROF" report -i "$J4" --host "$(hostname)" --report-output "$SCRATCH/rh.csv" >/dev/null 2>&1
	check "--host $(hostname): all 4" [ "$(csvq "$SCRATCH/rh.csv" --key "MPI Ranks Reported")" = "0-3" ]
	expect_fail 1 "--host of no rank" "no rank of the job is selected" \
		"$UPROF" report -i "$J4" --host nosuchhost --stdout
	expect_fail 2 "--rank that is not a list" "give ranks such as" \
		"$UPROF" report -i "$J4" --rank 3-1
	expect_fail 2 "--rank on a single session" "is a single session" \
		"$UPROF" report -i "$J4/rank-0" --rank 0
	"$UPROF" report -i "$J4/rank-2" >/dev/null 2>&1
	check "report over one rank-<r>/ still works" grep -q '^"spin_units"' "$J4/rank-2/report.csv"

	# damage: a rank without its session, a rank that never joined, an interrupted rank
	cp -a "$J4" "$SCRATCH/dmg" && D=$SCRATCH/dmg
	rm -f "$D/rank-1/session.ini"
	sed -i 's/^status = complete/status = interrupted/' "$D/rank-3/session.ini"
	sed -i 's/^ranks = 4/ranks = 6/' "$D/job.ini"
	"$UPROF" report -i "$D" >"$SCRATCH/d.out" 2>"$SCRATCH/d.err"
	check "a damaged job still reports (exit 0)" [ $? -eq 0 ]
	check "missing ranks listed: 1,4-5" [ "$(csvq "$D/report.csv" --key "MPI Ranks Missing")" = "1,4-5" ]
	check "rank 1 named: no session" grep -q "warning: rank 1 missing: rank-1: no session" "$SCRATCH/d.err"
	check "rank 4 named: never joined" grep -q "warning: rank 4 missing: never joined" "$SCRATCH/d.err"
	check "rank 3 named: interrupted, reported" grep -q "warning: rank 3 damaged: rank-3: interrupted" "$SCRATCH/d.err"
	check "the others are kept: ranks 0,2-3 reported" [ "$(csvq "$D/report.csv" --key "MPI Ranks Reported")" = "0,2-3" ]
	check "MPI RANKS says missing and interrupted" bash -c "grep -q '^1,\"?\",0,\"missing\"\|^1,.*\"missing\"' '$D/report.csv' && grep -q '^3,.*\"interrupted\"' '$D/report.csv'"
	printf 'garbage\n' >"$D/job.ini"
	expect_fail 1 "a broken job.ini" "job.ini: line 1: malformed" "$UPROF" report -i "$D"
fi

echo "1..$_n"
