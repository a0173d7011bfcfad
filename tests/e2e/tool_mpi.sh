#!/usr/bin/env bash
# Issue 32, Must show 3 (MPI): a tool of API 1.3 over a traced 4-rank job (report -i JOBDIR
# --tool) gets each rank's MPI summary (mpi_rank) and each rank's MPI functions (mpi_call).
# tests/tool/mpiranks.c writes them back in report.csv's own number style; every value must
# be the job's RANK SUMMARY TABLE's and MPI FUNCTION SUMMARY TABLE (Rank N)'s (--detail),
# row for row, under each MPI family there is. A tool declaring API 1.2 that sets the slots
# (reserved there) is refused, never called; older tools still run over a job; a sample
# filter over a job is refused (a job's ranks are sessions of their own).
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
T=$TGT/tools/mpiranks.so

compare() { # WHAT JOBDIR: the tool's sections against the job's tables
	"$PYTHON" - "$2/report.csv" >"$SCRATCH/cmp" 2>&1 <<'PY'
import csv, re, sys
ls = open(sys.argv[1], newline="").read().split("\n")
def rows_after(i):
    out = []
    for l in ls[i:]:
        if not l.strip():
            break
        out.append(l)
    return out
def table(title):  # rows (the lines after the column header) of the table titled so
    i = ls.index(title)
    return rows_after(i + 2)
def tool(title):  # the tool's one-cell rows
    return [next(csv.reader([l]))[0] for l in table('"%s (Tool - mpiranks)"' % title)]
bad = 0
# RANK SUMMARY: Rank,PID,MPI Time,MPI%,Wait Time,Wait%,Call Count,Volume,Vol%,Elapsed,Time%,Init,Finalize,End
want = []
for l in table("RANK SUMMARY TABLE"):
    c = l.split(", ")
    want.append(", ".join([c[0], c[1], c[2], c[4], c[6], c[7], c[9], c[11], c[12], c[13]]))
got = tool("MPI RANKS")
for w, g in zip(want, got):
    print("rank row: report [%s] tool [%s]%s" % (w, g, "" if w == g else "  <- differ"))
bad += want != got
calls_want = []
for i, l in enumerate(ls):
    m = re.match(r"MPI FUNCTION SUMMARY TABLE \(Rank (\d+)\)$", l)
    if m:
        calls_want += ["%s, %s" % (m.group(1), r) for r in rows_after(i + 2)]
calls_got = tool("MPI CALLS")
for w, g in zip(calls_want, calls_got):
    if w != g:
        print("call row: report [%s] tool [%s]  <- differ" % (w, g))
bad += calls_want != calls_got
print("%d ranks, %d function rows (report: %d, %d)" % (len(got), len(calls_got), len(want), len(calls_want)))
sys.exit(1 if bad or len(want) != 4 or not calls_want else 0)
PY
	local rc=$?
	sed 's/^/# /' "$SCRATCH/cmp"
	check "$1: each rank's summary and MPI functions are report.csv's ($(tail -1 "$SCRATCH/cmp"))" [ $rc -eq 0 ]
}

one_family() { # WHAT LAUNCHER... : a 4-rank traced job of mpi_p2p, then the checks
	local what=$1 prog=$2 J; shift 2
	timeout 300 "$@" -np 4 "$UPROF" collect --mpi --trace mpi -o "$SCRATCH/$what" \
		"$TGT/$prog" >"$SCRATCH/$what.log" 2>&1
	J=$(ls -d "$SCRATCH/$what"/uprof-*-HPC_MPI_* 2>/dev/null | head -1)
	check "$what: a traced 4-rank job ($J)" [ -n "$J" ]
	[ -n "$J" ] || return
	"$UPROF" report -i "$J" --detail --tool "$T" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "$what: report -i JOBDIR --detail --tool mpiranks.so exits 0 ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
	compare "$what" "$J"
	check "$what: the session callbacks get the job directory" \
		grep -qxF "\"$J\",4" "$J/report.csv"
	JOB=$J
}

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_p2p.openmpi" ]; then
	one_family openmpi mpi_p2p.openmpi mpirun --allow-run-as-root --oversubscribe
else
	skip "Open MPI: no mpirun or $TGT/mpi_p2p.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_p2p.mpich" ]; then
	one_family mpich mpi_p2p.mpich mpirun.mpich
else
	skip "MPICH: no mpirun.mpich or $TGT/mpi_p2p.mpich (scripts/install-deps.sh)"
fi

expect_fail 1 "a tool declaring API 1.2 that sets mpi_call and mpi_rank (reserved there) is refused" \
	"tool .*mpiranks12.so: refused: sets mpi_call, a slot its tool API 1.2 reserves \(its argument is API 1.3's: rebuild against this uprof_tool.h\)$" \
	"$UPROF" info --tool "$TGT/tools/mpiranks12.so"
if [ -n "${JOB:-}" ]; then
	"$UPROF" report -i "$JOB" --tool "$TGT/tools/mpiranks12.so" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "the same over the job: exit 1, refused before the report ($(cat "$SCRATCH/err"))" \
		bash -c "[ $rc = 1 ] && grep -q 'refused: sets mpi_call, a slot its tool API 1.2 reserves' '$SCRATCH/err'"
	"$UPROF" report -i "$JOB" --tool "$TGT/tools/ompslices.so" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "a tool of API 1.2 without the MPI slots runs over the job ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
	check "its section is in the job's report.csv" \
		grep -q '^"OPENMP SLICES (Tool - ompslices)"' "$JOB/report.csv"
	expect_fail 2 "a sample filter over a job is refused" \
		"a tool's filter_sample takes one session's samples: give a rank's" \
		"$UPROF" report -i "$JOB" --tool "$TGT/tools/dropfn.so,function=main"
else
	skip "no MPI job here: the older tools over one not run"
fi

echo "# $skipped skipped"
echo "1..$_n"
