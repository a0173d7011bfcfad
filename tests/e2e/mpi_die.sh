#!/usr/bin/env bash
# Ranks that die, under each launcher's default settings: rank 1 SIGKILLs itself and rank 2
# calls exit(3) after known MPI traffic (tests/targets/mpi_die.c), while ranks 0 and 3 still
# run. MPICH's hydra then SIGKILLs every rank's process group (uprof collect and its
# program at once); Open MPI's orted SIGTERMs them and SIGKILLs them soon after. The job's
# report must say which rank ended how, and keep every rank's MPI counts of the traffic
# done before its last snapshot, exactly as the program printed them. Each MPI family
# missing here is skipped, counted, with the reason.
. "$(dirname "$0")/lib/common.sh"

one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
# mpi_table FILE TITLE: the rows of an MPI TRACING REPORT block (", "-separated) as TSV
mpi_table() { awk -v t="$2" '$0==t{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");print}' "$1"; }
# rank_fn FILE RANK FUNCTION COLUMN: a cell of MPI FUNCTION SUMMARY TABLE (Rank r) (--detail)
rank_fn() { mpi_table "$1" "MPI FUNCTION SUMMARY TABLE (Rank $2)" | awk -F'\t' -v f="$3" -v c="$4" '$1==f{print $c}'; }
# end_of FILE RANK: the END column of MPI RANKS
end_of() { csvq "$1" "MPI RANKS" | awk -F'\t' -v r="$2" '$1==r{print $NF}'; }

# ranks 0 and 3 must not outlive the job (mpi_die gives up after 60 s in MPI_Abort): end
# what a launcher left running, as a batch system would, after the checks' data is there
settle() {
	local pat="collect --trace mpi -o $1" n
	for n in $(seq 1 60); do pgrep -f -- "$pat" >/dev/null || return 0; sleep 0.5; done
	echo "# the launcher left the collects of $1 running: SIGKILL sent to them"
	pkill -KILL -f -- "$pat"
}

die_checks() { # WHAT OUT LOG LAUNCHER_SIGNAL_RE
	local what=$1 out=$2 log=$3 sigre=$4 J R ends want got
	J=$(one_job "$out")
	check "$what: one job directory" [ -n "$J" ]
	[ -n "$J" ] || return 1
	"$UPROF" report -i "$J" --detail >"$SCRATCH/$what.out" 2>"$SCRATCH/$what.err"
	check "$what: the job's report comes (exit $?)" [ $? -eq 0 ]
	R=$J/report.csv
	ends=$(sed -n 's/^Ranks: //p' "$SCRATCH/$what.err")
	echo "# $what: Ranks: $ends"
	check "$what: rank 1 killed by SIGKILL, rank 2 exit(3) (MPI RANKS: $(end_of "$R" 1) / $(end_of "$R" 2))" \
		[ "$(end_of "$R" 1)" = "killed by SIGKILL" -a "$(end_of "$R" 2)" = "exit(3)" ]
	check "$what: ranks 0 and 3 killed by the launcher ($(end_of "$R" 0) / $(end_of "$R" 3))" \
		bash -c "[[ '$(end_of "$R" 0)' =~ ^killed\ by\ the\ launcher\ with\ SIG($sigre)$ && '$(end_of "$R" 3)' =~ ^killed\ by\ the\ launcher\ with\ SIG($sigre)$ ]]"
	check "$what: the terminal's summary names them ($ends)" \
		bash -c "grep -q '1 killed by SIGKILL (rank 1)' <<<'$ends' && grep -q '1 exit(3) (rank 2)' <<<'$ends' && grep -qE '2 killed by the launcher with SIG($sigre) \(ranks 0,3\)' <<<'$ends'"
	check "$what: PROFILE DETAILS says the same" \
		[ "$(csvq "$R" --key "MPI Rank Ends")" = "$ends" ]
	check "$what: RANK SUMMARY TABLE's End State: rank 1 killed by SIGKILL, rank 2 exit(3)" \
		[ "$(mpi_table "$R" "RANK SUMMARY TABLE" | awk -F'\t' '$1==1||$1==2{print $NF}' | tr '\n' ';')" = "killed by SIGKILL;exit(3);" ]
	check "$what: every rank's MPI data kept (Ranks With MPI Data, 4)" grep -qx "Ranks With MPI Data, 4" "$R"
	check "$what: rank 1's is its last snapshot" \
		grep -q "warning: rank 1 MPI data: a snapshot taken .* (SIGKILL); partial" "$SCRATCH/$what.err"
	# the counts each rank printed after its traffic, 2.5 s in MPI before its end
	for r in 0 1 2 3; do
		want=$(sed -n "s/^rank $r MPI_Send \([0-9]*\) \([0-9]*\) MPI_Recv \([0-9]*\) \([0-9]*\) MPI_Allgather \([0-9]*\) MPI_Barrier \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p" "$log")
		got="$(rank_fn "$R" $r MPI_Send 2) $(rank_fn "$R" $r MPI_Send 4) $(rank_fn "$R" $r MPI_Recv 2) $(rank_fn "$R" $r MPI_Recv 5) $(rank_fn "$R" $r MPI_Allgather 2) $(rank_fn "$R" $r MPI_Barrier 2)"
		check "$what: rank $r's MPI counts are what it printed (sends, bytes, receives, bytes, allgather, barrier: $got / $want)" \
			[ -n "$want" -a "$got" = "$want" ]
	done
	check "$what: no .session.ini.tmp left" [ -z "$(ls -a "$J"/rank-* | grep -F .session.ini.tmp)" ]
	# each rank spent 2.5 s in MPI after its traffic, by its own clock, before any end
	el=$(csvq "$R" "MPI RANKS" | awk -F'\t' '{print $8}' | tr '\n' ' ')
	check "$what: every rank's ELAPSED covers its 2.5 s in MPI ($el)" \
		"$PYTHON" -c "import sys; v=[float(x) for x in sys.argv[1:]]; sys.exit(0 if len(v)==4 and min(v)>=2.5 else 1)" $el
	for r in 0 3; do
		if grep -qx 'status = running' "$J/rank-$r/session.ini"; then
			"$UPROF" report -i "$J/rank-$r" >/dev/null 2>"$SCRATCH/$what.r$r.err"
			dur=$(csvq "$J/rank-$r/report.csv" --key "Profile Duration")
			check "$what: rank $r's collect was killed: its report says so, data up to its last sample ($dur)" \
				bash -c "grep -q '^note: collect was killed: data up to ' '$SCRATCH/$what.r$r.err' && grep -q '^Collect Killed:,\"collect was killed: data up to ' '$J/rank-$r/report.csv' && [ '${dur%% *}' != 0.000 ]"
		else
			ok "$what: rank $r's collect wrote its session.ini's end before the launcher's SIGKILL"
		fi
	done
}

if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_die.mpich" ]; then
	timeout 120 mpirun.mpich -np 4 "$UPROF" collect --trace mpi -o "$SCRATCH/m" \
		"$TGT/mpi_die.mpich" >"$SCRATCH/m.log" 2>&1
	check "MPICH: the job fails ($?)" [ $? -ne 0 ]
	settle "$SCRATCH/m"
	die_checks MPICH "$SCRATCH/m" "$SCRATCH/m.log" KILL
	J=$(one_job "$SCRATCH/m")
	check "MPICH: hydra SIGKILLed ranks 0 and 3 with their collects: sessions left running" \
		bash -c "grep -qx 'status = running' '$J/rank-0/session.ini' && grep -qx 'status = running' '$J/rank-3/session.ini'"
else
	ok "MPICH ranks that die # SKIP no mpirun.mpich or $TGT/mpi_die.mpich (scripts/install-deps.sh)"
fi

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_die.openmpi" ]; then
	timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 "$UPROF" collect --trace mpi \
		-o "$SCRATCH/o" "$TGT/mpi_die.openmpi" >"$SCRATCH/o.log" 2>&1
	check "Open MPI: the job fails ($?)" [ $? -ne 0 ]
	settle "$SCRATCH/o"
	# orted SIGTERMs the survivors' process groups, then SIGKILLs them: a collect that had
	# not said so by then is seen killed by SIGKILL
	die_checks "Open MPI" "$SCRATCH/o" "$SCRATCH/o.log" 'TERM|KILL'
else
	ok "Open MPI ranks that die # SKIP no mpirun or $TGT/mpi_die.openmpi (scripts/install-deps.sh)"
fi

# A rank's collect stopped by SIGTERM and SIGKILLed before its end's rewrite, as Open MPI's
# launcher may do, made certain: the program ignores SIGTERM, so collect, having passed it
# on, waits 200 ms for it before its end; session.ini says running with the signal in
# that window, and the SIGKILL comes there.
# stop_try N: one run (job "stopN"); 0 when collect was SIGKILLed in that window
stop_try() {
	local J=$SCRATCH/stop/uprof-*-HPC_MPI_stop$1 I cpid tpid n
	PMI_RANK=0 PMI_SIZE=1 UPROF_MPI_JOB=stop$1 "$UPROF" collect --mpi -o "$SCRATCH/stop" \
		sh -c 'trap "" TERM; exec sleep 60' 2>"$SCRATCH/stop$1.err" &
	cpid=$!
	for n in $(seq 1 200); do grep -q '^Profiling started' "$SCRATCH/stop$1.err" && break; sleep 0.05; done
	sleep 1 # the profile is at least this long when the signal comes
	kill -TERM "$cpid"
	for n in $(seq 1 400); do
		I=$(echo $J/rank-0/session.ini)
		if grep -qx 'stop_signal = 15' "$I" && grep -qx 'status = running' "$I"; then
			kill -KILL "$cpid"
			break
		fi
		grep -qx 'status = running' "$I" || break
		sleep 0.005
	done
	wait "$cpid" 2>/dev/null
	tpid=$(sed -n 's/^pids = //p' $J/rank-0/session.ini)
	[ -n "$tpid" ] && kill -KILL "$tpid" 2>/dev/null
	grep -qx 'status = running' $J/rank-0/session.ini && S=$(echo $J/rank-0)
}
S=
for try in 1 2 3; do
	stop_try $try
	[ -n "$S" ] && break
	echo "# try $try: collect's end came before its noted stop was seen"
done
noted=0
[ -n "$S" ] && noted=1
check "collect stopped by SIGTERM says so in session.ini before its end (one of 3 tries)" [ "$noted" = 1 ]
if [ "$noted" = 1 ]; then
	check "collect SIGKILLed after SIGTERM: no .session.ini.tmp left" [ ! -e "$S/.session.ini.tmp" ]
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/stop.rep"
	check "its report comes (exit $?)" [ $? -eq 0 ]
	check "it names the signal that stopped collect (Stopped By)" grep -q '^Stopped By:,"SIGTERM' "$S/report.csv"
	check "it says collect was killed, data up to a time" \
		grep -q '^Collect Killed:,"collect was killed: data up to .* s after the start)"$' "$S/report.csv"
	dur=$(csvq "$S/report.csv" --key "Profile Duration")
	check "its profile lasts from the start to the signal: at least the 1 s before it ($dur)" \
		"$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 1.0 else 1)" "${dur%% *}"
	"$UPROF" report -i "$(dirname "$S")" >/dev/null 2>"$SCRATCH/stopj.err"
	check "the job report: killed by the launcher with SIGTERM ($(grep '^Ranks:' "$SCRATCH/stopj.err"))" \
		grep -qx 'Ranks: 1 killed by the launcher with SIGTERM (rank 0)' "$SCRATCH/stopj.err"
fi

echo "1..$_n"
