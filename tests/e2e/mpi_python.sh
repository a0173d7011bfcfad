#!/usr/bin/env bash
# --trace mpi on an interpreter: python3 links no libmpi, mpi4py's extension does. collect
# finds the family from the mpi4py.MPI that the interpreter would import, traces the job
# with no --trace mpi=<family>, and its counts are what the program says it did; an
# interpreter without mpi4py gets one message saying what to give. Skipped, counted,
# without Open MPI or python3-mpi4py (scripts/install-deps.sh).
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
PY=/usr/bin/python3
PROG=tests/targets/mpi4py_ring.py
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
mpi_table() { awk -v t="$2" '$0==t{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");print}' "$1"; }

if ! command -v mpirun >/dev/null || ! [ -x "$PY" ] || ! "$PY" -c 'import mpi4py' 2>/dev/null; then
	ok "mpi4py jobs # SKIP no mpirun, $PY or its mpi4py (python3-mpi4py)"
	echo "1..$_n"
	exit 0
fi
# the extension the interpreter imports, and the family it links: what collect must find
ext=$("$PY" -c 'import importlib.util as u; print(u.find_spec("mpi4py.MPI").origin)')
family=none
ldd "$ext" | grep -q 'libmpi\.so\.40 ' && family=openmpi
ldd "$ext" | grep -q 'libmpich\.so\.12 ' && family=mpich
echo "# $ext: $family"

if [ "$family" = openmpi ]; then
	# the program's lines on stdout, uprof's messages on stderr: never mixed in one line
	timeout 300 "${OMPIRUN[@]}" -np 2 "$UPROF" collect --trace mpi -o "$SCRATCH/p2" "$PY" "$PROG" \
		"$SCRATCH/facts" >"$SCRATCH/p2.log" 2>"$SCRATCH/p2.stderr"
	check "python3 with mpi4py, --trace mpi and no family named: 2 ranks exit 0 ($?)" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/p2")
	check "one job directory" [ -n "$J" ]
	"$UPROF" report -i "$J" --detail >/dev/null 2>"$SCRATCH/p2.err"
	R=$J/report.csv
	check "report: every rank's MPI data whole ($(grep 'MPI data' "$SCRATCH/p2.err" | head -1))" \
		bash -c "! grep -q 'MPI data' '$SCRATCH/p2.err'"
	check "MPI Family, openmpi (the extension's)" grep -qx "MPI Family, openmpi" "$R"
	check "mpi4py's MPI_Init_thread, once per rank, is apart: last rows, no MPI Time(%)" \
		[ "$(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (All Ranks)" | tail -2 | awk -F'\t' '{printf "%s[%s]%s ", $1, $5, $7}')" = "MPI_Init_thread[]2 MPI_Finalize[]2 " ]
	# the program's facts from its files (mpirun may splice the ranks' stdout mid-line)
	cat "$SCRATCH"/facts.* >"$SCRATCH/facts" 2>/dev/null
	sed -n 's/^count \([0-9]*\) \(MPI_[A-Za-z]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$SCRATCH/facts" |
		LC_ALL=C sort >"$SCRATCH/want"
	for r in 0 1; do
		mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (Rank $r)" |
			awk -F'\t' -v r=$r '$1=="MPI_Send"||$1=="MPI_Recv"||$1=="MPI_Allreduce"||$1=="MPI_Barrier" {print r, $1, $2, $4, $5}'
	done | LC_ALL=C sort >"$SCRATCH/got"
	check "the program printed 4 functions x 2 ranks ($(grep -c . "$SCRATCH/want"))" [ "$(grep -c . "$SCRATCH/want")" -eq 8 ]
	check "calls and bytes per function and rank exactly the program's ($(diff "$SCRATCH/want" "$SCRATCH/got" | grep -c '^[<>]') lines differ)" \
		cmp -s "$SCRATCH/want" "$SCRATCH/got"
	sed -n 's/^pair \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 ---> \2 \3 \4/p' "$SCRATCH/facts" | LC_ALL=C sort >"$SCRATCH/pwant"
	mpi_table "$R" "COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $4, $6}' | LC_ALL=C sort >"$SCRATCH/pgot"
	check_sh "the communication matrix is the program's ($(tr '\n' ';' <"$SCRATCH/pgot"))" \
		'[ "$(grep -c . "$SCRATCH/pwant")" -eq 2 ] && cmp -s "$SCRATCH/pwant" "$SCRATCH/pgot"'
	# the other family named: refused before anything runs, naming the extension
	expect_fail 1 "--trace mpi=mpich on python3 whose mpi4py is Open MPI's" \
		"imports '.*mpi4py/MPI\..*\.so', which is linked with Open MPI \(libmpi\.so\.40\)" \
		env PMI_RANK=0 PMI_SIZE=1 UPROF_MPI_JOB=wrongpy "$UPROF" collect --trace mpi=mpich \
		-o "$SCRATCH/wrong" "$PY" "$PROG"
	check "the refused run left no session" [ ! -e "$SCRATCH/wrong/uprof-python3"*"-HPC_MPI_wrongpy/rank-0/session.ini" ]
else
	ok "mpi4py job # SKIP $PY's mpi4py links no Open MPI ($family): this test runs it under mpirun"
fi

# an interpreter with no mpi4py: a venv without the system's packages (its python3 a link
# to the same interpreter, which finds the venv by the name it is run by)
if "$PY" -m venv --without-pip "$SCRATCH/venv" 2>/dev/null; then
	check "the venv's python3 finds no mpi4py" bash -c "! '$SCRATCH/venv/bin/python3' -c 'import mpi4py' 2>/dev/null"
	expect_fail 1 "--trace mpi on a python3 without mpi4py says what to give" \
		"cannot tell the MPI family of '.*python3[.0-9]*' \(no libmpi among the libraries it loads, and no mpi4py.MPI it would import\): give --trace mpi=openmpi or --trace mpi=mpich" \
		env PMI_RANK=0 PMI_SIZE=1 UPROF_MPI_JOB=barepy "$UPROF" collect --trace mpi \
		-o "$SCRATCH/venv/out" "$SCRATCH/venv/bin/python3" "$PROG"
	check "nothing was collected" [ ! -e "$SCRATCH/venv/out/uprof-python3"*"-HPC_MPI_barepy/rank-0/session.ini" ]
else
	ok "python3 without mpi4py # SKIP $PY -m venv does not work here"
fi

echo "1..$_n"
