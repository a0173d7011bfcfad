#!/usr/bin/env bash
# MPI through the Fortran modules: one pattern (tests/targets/mpi_fbind.F90) built with
# `use mpi_f08` and with `use mpi`, traced under Open MPI and MPICH. The program counts
# its own calls, bytes and transfers as it makes them and prints them; uprof's per-rank
# function table and communication matrix must say exactly the same, every call counted
# once: a blocking receive what arrived (its status's count, also under MPI_STATUS_IGNORE),
# an MPI_IN_PLACE allgather its own part. Under --trace mpi=full every message is a flow
# to where it arrived: a Fortran request's to the Wait or Waitall that completed it, as
# for C. A family or binding missing here is skipped, counted, with the reason.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
# one_job OUT: the job directory under OUT (exactly one), or ""
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
# mpi_table FILE TITLE: the rows of an MPI TRACING REPORT block (", "-separated) as TSV
mpi_table() { awk -v t="$2" '$0==t{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");print}' "$1"; }

# bind_checks WHAT FAMILY BINARY SYMBOL: run BINARY on 4 ranks of FAMILY, traced, and
# compare; SYMBOL is an entry point the binding must reach (what makes it this binding)
bind_checks() {
	local what=$1 fam=$2 bin=$3 sym=$4 out=$SCRATCH/$1 J R r fns
	out=${out// /_}
	check "$what: the program calls the binding's own entry points ($sym)" \
		bash -c "nm -u '$bin' | grep -qw '$sym'"
	# the program's lines on stdout, uprof's messages on stderr: never mixed in one line
	# the MPI-IO file of the program, under the test's scratch directory
	export UPROF_FBIND_FILE=$out.dat
	if [ "$fam" = openmpi ]; then
		timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect --trace mpi -o "$out" "$bin" >"$out.log" 2>"$out.stderr"
	else
		timeout 300 mpirun.mpich -np 4 "$UPROF" collect --trace mpi -o "$out" "$bin" >"$out.log" 2>"$out.stderr"
	fi
	check "$what: 4 ranks traced, exit 0 ($?)" [ $? -eq 0 ]
	J=$(one_job "$out")
	check "$what: one job directory" [ -n "$J" ]
	[ -n "$J" ] || return
	"$UPROF" report -i "$J" --detail >/dev/null 2>"$out.err"
	check "$what: report exits 0 ($?)" [ $? -eq 0 ]
	R=$J/report.csv
	check "$what: every rank's MPI data whole, none named missing ($(grep 'MPI data' "$out.err" | head -1))" \
		bash -c "! grep -q 'MPI data' '$out.err'"
	check "$what: Total Ranks, 4" grep -qx "Total Ranks, 4" "$R"
	check "$what: MPI Family, $fam" grep -qx "MPI Family, $fam" "$R"
	# what the program counted: "count <rank> <function> <calls> <sent> <received>"
	sed -n 's/^count \([0-9]*\) \(MPI_[A-Za-z_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$out.log" |
		LC_ALL=C sort >"$out.want"
	fns=$(awk '{print $2}' "$out.want" | sort -u | tr '\n' ' ')
	: >"$out.got"
	for r in 0 1 2 3; do
		mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (Rank $r)" |
			awk -F'\t' -v r=$r -v fns=" $fns" 'index(fns, " " $1 " ") {print r, $1, $2, $4, $5}'
	done | LC_ALL=C sort >"$out.got"
	check "$what: the program printed 26 functions x 4 ranks ($(grep -c . "$out.want") lines)" \
		[ "$(grep -c . "$out.want")" -eq 104 ]
	check "$what: calls, bytes sent and received per function and rank exactly the program's ($(diff "$out.want" "$out.got" | grep -c '^[<>]') lines differ)" \
		cmp -s "$out.want" "$out.got"
	# "pair <from> <to> <bytes> <transfers>"
	sed -n 's/^pair \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 ---> \2 \3 \4/p' "$out.log" |
		LC_ALL=C sort >"$out.pwant"
	mpi_table "$R" "COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $4, $6}' | LC_ALL=C sort >"$out.pgot"
	check_sh "$what: the communication matrix is the program's, 8 pairs ($(tr '\n' ';' <"$out.pgot"))" \
		'[ "$(grep -c . "$out.pwant")" -eq 8 ] && cmp -s "$out.pwant" "$out.pgot"'
	# "rma <origin> <target> <operations> <put> <get>": the RMA matrix's rows, apart from
	# the point-to-point matrix above
	sed -n 's/^rma \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 ---> \2 \3 \4 \5/p' "$out.log" |
		LC_ALL=C sort >"$out.rwant"
	mpi_table "$R" "RMA COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $2, $3, $4}' | LC_ALL=C sort >"$out.rgot"
	check_sh "$what: the RMA matrix is the program's puts and gets, 8 pairs ($(tr '\n' ';' <"$out.rgot"))" \
		'[ "$(grep -c . "$out.rwant")" -eq 8 ] && cmp -s "$out.rwant" "$out.rgot"'
	apart_checks "$what" "$J" "$out.err"
	rank_checks "$what" "$J" 2
	check "$what: MPI_Init and MPI_Finalize once on each rank" \
		[ "$(for r in 0 1 2 3; do mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (Rank $r)" | awk -F'\t' '$1=="MPI_Init"||$1=="MPI_Finalize"{printf "%s=%s ", $1, $2}'; done)" = \
		"$(printf 'MPI_Init=1 MPI_Finalize=1 %.0s' 1 2 3 4)" ]
}

# apart_checks WHAT JOBDIR ERRFILE: MPI_Init/Finalize apart from MPI time, in the job's
# tables and its terminal summary (uprof-mpi(7))
apart_checks() {
	local what=$1 J=$2 err=$3 R=$2/report.csv
	check "$what: MPI_Init and MPI_Finalize last in the function table, with no MPI Time(%)" \
		[ "$(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (All Ranks)" | tail -2 | awk -F'\t' '{printf "%s[%s] ", $1, $5}')" = "MPI_Init[] MPI_Finalize[] " ]
	check "$what: the other functions' MPI Time(%) add up to 100" "$PYTHON" -c "
import sys
v=[float(l.split('\t')[4]) for l in sys.stdin.read().splitlines()[:-2]]
sys.exit(0 if abs(sum(v)-100)<0.01 else 1)" < <(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (All Ranks)")
	# each rank's MPI Time is its functions' time but MPI_Init/Finalize; those have columns
	check "$what: each rank's MPI Time, Init Time and Finalize Time from its own function table" "$PYTHON" -c "
import sys
def table(title):
    rows, on = [], False
    for l in open(sys.argv[1]):
        l = l.rstrip('\n')
        if l == title: on = True; next_hdr = True; continue
        if on and next_hdr: next_hdr = False; continue
        if on and not l: break
        if on: rows.append(l.split(', '))
    return rows
ok = True
for row in table('RANK SUMMARY TABLE'):
    fns = {f[0]: float(f[2]) for f in table('MPI FUNCTION SUMMARY TABLE (Rank %s)' % row[0])}
    mpi = sum(t for n, t in fns.items() if n not in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize'))
    near = lambda a, b: abs(a - b) <= 1e-5 * max(abs(b), 1e-6) + 2e-9 * len(fns)
    ok &= near(float(row[2]), mpi) and near(float(row[11]), fns.get('MPI_Init', 0)) and near(float(row[12]), fns.get('MPI_Finalize', 0))
sys.exit(0 if ok else 1)" "$R"
	# the terminal says %.4f, the CSV %g: each rounds, 0.00011 s covers both
	local snap top line
	snap=$(sed -n 's/^MPI Time,"\(.*\) seconds"$/\1/p' "$R")
	top=$(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (All Ranks)" | head -1 | cut -f1)
	line=$(grep '^MPI: ' "$err" | tr '\n' '|')
	check "$what: the terminal summary says the ranks and the job's MPI Time ($snap s): $line" \
		"$PYTHON" -c "
import re, sys
m = re.search(r'^MPI: 4 of 4 traced ranks reported; MPI time ([0-9.]+) s, [0-9.]+ % of their time between MPI_Init and MPI_Finalize \(MPI_Init [0-9.]+ s, MPI_Finalize [0-9.]+ s, apart\)\|', sys.argv[1])
sys.exit(0 if m and abs(float(m.group(1)) - float(sys.argv[2])) <= 0.00011 else 1)" "$line" "$snap"
	check "$what: the terminal summary's top function is the table's first ($top)" \
		grep -q "^MPI: top function $top, " "$err"
}

# rank_checks WHAT JOBDIR RANK: the report of one rank's directory has that rank's MPI
# tables, the figures the job's report gives it, and its MPI lines on the terminal
rank_checks() {
	local what=$1 J=$2 r=$3 R=$2/rank-$3/report.csv mine job
	"$UPROF" report -i "$J/rank-$r" >"$SCRATCH/rank.out" 2>"$SCRATCH/rank.err"
	check "$what: report -i rank-$r exits 0 ($?)" [ $? -eq 0 ]
	check "$what: rank-$r's report.csv has its MPI TRACING REPORT" grep -qx "MPI TRACING REPORT" "$R"
	# its RANK SUMMARY row is the job's for rank r, but for the shares of the job's totals
	mine=$(mpi_table "$R" "RANK SUMMARY TABLE" | cut -f1-3,5-8,10-13)
	job=$(mpi_table "$J/report.csv" "RANK SUMMARY TABLE" | awk -F'\t' -v r=$r '$1==r' | cut -f1-3,5-8,10-13)
	check "$what: rank-$r's RANK SUMMARY row is the job's ($(tr '\t' ' ' <<<"$mine"))" [ -n "$mine" -a "$mine" = "$job" ]
	mine=$(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (All Ranks)" | awk -F'\t' '{print $1, $7, $8}' | sort)
	job=$(mpi_table "$J/report.csv" "MPI FUNCTION SUMMARY TABLE (Rank $r)" | awk -F'\t' '{print $1, $2, $3}' | sort)
	check "$what: rank-$r's functions, calls and times are the job's for rank $r ($(grep -c . <<<"$mine") functions)" \
		[ -n "$mine" -a "$mine" = "$job" ]
	mine=$(mpi_table "$R" "COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $4, $6}')
	job=$(mpi_table "$J/report.csv" "COMMUNICATION MATRIX" | awk -F'\t' -v r="$r --->" 'index($1, r) == 1 {print $1, $4, $6}')
	check "$what: rank-$r's matrix rows are the job's ($(tr '\n' ';' <<<"$mine"))" [ -n "$mine" -a "$mine" = "$job" ]
	mine=$(mpi_table "$R" "RANK SUMMARY TABLE" | cut -f3)
	check "$what: rank-$r's terminal summary says its MPI time ($mine s): $(grep '^MPI: ' "$SCRATCH/rank.err" | head -1)" \
		"$PYTHON" -c "
import re, sys
m = re.search(r'^MPI: 1 of 1 traced rank reported; MPI time ([0-9.]+) s', sys.argv[1], re.M)
sys.exit(0 if m and abs(float(m.group(1)) - float(sys.argv[2])) <= 0.00011 else 1)" "$(cat "$SCRATCH/rank.err")" "${mine:-x}"
}

# trace_checks WHAT FAMILY BINARY: the same program under --trace mpi=full: each Fortran
# call is a slice in the job's trace.json (MPI_Init and MPI_Finalize too, once a rank),
# and each message a flow to where it arrived: a blocking MPI_Send's to the MPI_Recv that
# received it, a nonblocking or persistent send's to the MPI_Wait or MPI_Waitall that
# completed its receive
trace_checks() {
	local what=$1 fam=$2 bin=$3 out=$SCRATCH/trace-$2-$(basename "$3") T r i
	export UPROF_FBIND_FILE=$out.dat
	if [ "$fam" = openmpi ]; then
		timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect --trace mpi=full -o "$out" "$bin" >"$out.log" 2>"$out.stderr"
	else
		timeout 300 mpirun.mpich -np 4 "$UPROF" collect --trace mpi=full -o "$out" "$bin" >"$out.log" 2>"$out.stderr"
	fi
	check "$what --trace mpi=full: 4 ranks exit 0 ($?)" [ $? -eq 0 ]
	J=$(one_job "$out")
	[ -n "$J" ] || { not_ok "$what --trace mpi=full: no job directory"; return; }
	"$UPROF" report -i "$J" --export perfetto >"$out.rep" 2>&1
	check "$what --trace mpi=full: report --export perfetto exits 0 ($?)" [ $? -eq 0 ]
	T=$J/trace.json
	sed -n 's/^count \([0-9]*\) \(MPI_[A-Za-z_]*\) \([0-9]*\) .*/\1 \2 \3/p' "$out.log" | LC_ALL=C sort >"$out.cwant"
	"$PYTHON" "$HERE/mpitraceq.py" counts "$T" | LC_ALL=C sort >"$out.call"
	grep -v ' MPI_\(Init\|Finalize\) ' "$out.call" >"$out.cgot"
	check_sh "$what --trace mpi=full: slices per function per rank are the program's calls, 26 functions ($(diff "$out.cwant" "$out.cgot" | grep -c '^[<>]') lines differ)" \
		'[ "$(grep -c . "$out.cwant")" -eq 104 ] && cmp -s "$out.cwant" "$out.cgot"'
	check "$what --trace mpi=full: one MPI_Init and one MPI_Finalize slice a rank" \
		[ "$(grep -c ' MPI_\(Init\|Finalize\) 1$' "$out.call")" -eq 8 ]
	for r in 0 1 2 3; do
		n=$(((r + 1) % 4)) p=$(((r + 3) % 4))
		for i in 1 2 3 4 5; do echo "$r $n $i MPI_Send#$((i - 1)) MPI_Recv#$((i - 1)) $r 1"; done
		for i in 1 2; do echo "$r $p 1$i MPI_Isend#$((i - 1)) MPI_Wait#$((2 * i - 2)) - 1"; done
		echo "$r $n 20 MPI_Isend#2 MPI_Waitall#0 - 1"
		echo "$r $n 30 MPI_Startall#0 MPI_Waitall#1 - 1"
		echo "$r $n 30 MPI_Start#1 MPI_Wait#4 - 1"
	done | LC_ALL=C sort >"$out.fwant"
	"$PYTHON" "$HERE/mpitraceq.py" flows "$T" | LC_ALL=C sort >"$out.fgot"
	check "$what --trace mpi=full: each message a flow from its send to where it arrived, 40 flows ($(diff "$out.fwant" "$out.fgot" | grep -c '^[<>]') lines differ)" \
		cmp -s "$out.fwant" "$out.fgot"
	check "$what --trace mpi=full: otherData: none unmatched, none unlinked" \
		[ "$("$PYTHON" "$HERE/mpitraceq.py" other "$T" mpi unmatched_sends) $("$PYTHON" "$HERE/mpitraceq.py" other "$T" mpi unmatched_receives) $("$PYTHON" "$HERE/mpitraceq.py" other "$T" mpi completions_unlinked)" = "0 0 0" ]
}

have_ompi() { command -v mpirun >/dev/null && [ -x "$TGT/mpi_f08.openmpi" ]; }
have_mpich() { command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_f08.mpich" ]; }

if have_ompi; then
	bind_checks "Open MPI use mpi_f08" openmpi "$TGT/mpi_f08.openmpi" mpi_send_f08_
	bind_checks "Open MPI use mpi" openmpi "$TGT/mpi_usempi.openmpi" mpi_send_
	trace_checks "Open MPI use mpi_f08" openmpi "$TGT/mpi_f08.openmpi"
	trace_checks "Open MPI use mpi" openmpi "$TGT/mpi_usempi.openmpi"
else
	ok "Open MPI Fortran modules # SKIP no mpirun or $TGT/mpi_f08.openmpi (mpif90)"
fi
if have_mpich; then
	bind_checks "MPICH use mpi_f08" mpich "$TGT/mpi_f08.mpich" mpi_send_f08ts_
	bind_checks "MPICH use mpi" mpich "$TGT/mpi_usempi.mpich" mpi_send_
	trace_checks "MPICH use mpi_f08" mpich "$TGT/mpi_f08.mpich"
	trace_checks "MPICH use mpi" mpich "$TGT/mpi_usempi.mpich"
else
	ok "MPICH Fortran modules # SKIP no mpirun.mpich or $TGT/mpi_f08.mpich (mpif90.mpich)"
fi

# a rank that loads uprof's MPI library and exits with no MPI_Init it saw is said to be
# that, not killed: a program that never starts MPI, traced as Open MPI's
if command -v mpirun >/dev/null && [ -e "$BUILD/lib/libuprof_mpi_openmpi.so" ]; then
	timeout 300 "${OMPIRUN[@]}" -np 2 "$UPROF" collect --trace mpi=openmpi -o "$SCRATCH/ni" \
		"$TGT/demo" 10 >"$SCRATCH/ni.log" 2>&1
	check "a program without MPI under --trace mpi=openmpi: 2 ranks exit 0 ($?)" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/ni")
	check "each rank left <pid>.noinit, no .mpi ($(ls "$J"/rank-*/mpi 2>/dev/null | tr '\n' ' '))" \
		[ "$(ls "$J"/rank-*/mpi/*.noinit 2>/dev/null | grep -c .)" -eq 2 -a "$(ls "$J"/rank-*/mpi/*.mpi 2>/dev/null | grep -c .)" -eq 0 ]
	"$UPROF" report -i "$J" >/dev/null 2>"$SCRATCH/ni.err"
	check "report names both ranks: library loaded, no MPI_Init seen, not killed" \
		[ "$(grep -c "MPI data: no MPI data: the program ran with uprof's MPI library loaded and exited, and the library saw no MPI_Init" "$SCRATCH/ni.err")" -eq 2 ]
else
	ok "a rank with no MPI_Init # SKIP no mpirun or Open MPI interposer"
fi

echo "1..$_n"
