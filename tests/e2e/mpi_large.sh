#!/usr/bin/env bash
# MPI 4.0's large-count calls under MPICH 4.0 (tests/targets/mpi_large.c, 2 ranks):
# MPI_Send_c, MPI_Recv_c, MPI_Isend_c, MPI_Irecv_c, MPI_Bcast_c, MPI_Reduce_c and
# MPI_Allreduce_c counted under their int-count names, one message of 2^31 + 24 bytes
# among them: the per-rank function tables and the matrix must be the program's own
# counts, exactly. Open MPI 4.1 (MPI 3.1) has no _c calls: not run there.
. "$(dirname "$0")/lib/common.sh"

one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
mpi_table() { awk -v t="$2" '$0==t{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");print}' "$1"; }
BIN=$TGT/mpi_large.mpich

if ! command -v mpirun.mpich >/dev/null || [ ! -x "$BIN" ]; then
	ok "large-count calls # SKIP no mpirun.mpich or $BIN (MPICH 4's mpicc.mpich)"
elif [ "$(awk '/MemAvailable/{print int($2 / 1048576)}' /proc/meminfo)" -lt 6 ]; then
	ok "large-count calls # SKIP under 6 GiB of memory available (2 ranks hold 2 GiB + 24 bytes each)"
else
	out=$SCRATCH/large
	timeout 600 mpirun.mpich -np 2 "$UPROF" collect --trace mpi -o "$out" "$BIN" >"$out.log" 2>"$out.err"
	check "2 ranks of MPI_*_c calls traced, exit 0 ($?)" [ $? -eq 0 ]
	J=$(one_job "$out")
	check "one job directory" [ -n "$J" ]
	"$UPROF" report -i "$J" --detail >/dev/null 2>"$out.rep"
	check "report exits 0 ($?)" [ $? -eq 0 ]
	R=$J/report.csv
	sed -n 's/^count \([0-9]*\) \(MPI_[A-Za-z_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$out.log" |
		LC_ALL=C sort >"$out.want"
	for r in 0 1; do
		mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (Rank $r)" |
			awk -F'\t' -v r=$r '$1 != "MPI_Init" && $1 != "MPI_Finalize" {print r, $1, $2, $4, $5}'
	done | LC_ALL=C sort >"$out.got"
	check "the program says rank 0 sent 2^31 + 24 bytes in its one MPI_Send_c" \
		grep -qx "0 MPI_Send 1 2147483672 0" "$out.want"
	check_sh "calls, bytes sent and received per function and rank are the program's, under the int-count names ($(diff "$out.want" "$out.got" | grep -c '^[<>]') lines differ)" \
		'[ "$(grep -c . "$out.want")" -eq 14 ] && cmp -s "$out.want" "$out.got"'
	check "no _c name in the tables: MPI_Send_c is MPI_Send" bash -c "! grep -q '_c, ' '$R'"
	sed -n 's/^pair \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 ---> \2 \3 \4/p' "$out.log" | LC_ALL=C sort >"$out.pwant"
	mpi_table "$R" "COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $4, $6}' | LC_ALL=C sort >"$out.pgot"
	check_sh "the matrix is the program's: 0 ---> 1 past 2^31 bytes ($(tr '\n' ';' <"$out.pgot"))" \
		'[ "$(grep -c . "$out.pwant")" -eq 2 ] && cmp -s "$out.pwant" "$out.pgot"'
fi
echo "1..$_n"
