#!/usr/bin/env bash
# Issue 32, Must show 3 (MPI): a tool of API 1.3 over a traced 4-rank job (report -i JOBDIR
# --tool) gets each rank's MPI summary (mpi_rank) and each rank's MPI functions (mpi_call).
# tests/tool/mpiranks.c writes them back in report.csv's own number style; every value must
# be the job's RANK SUMMARY TABLE's and MPI FUNCTION SUMMARY TABLE (Rank N)'s (--detail),
# row for row, under each MPI family there is. A tool declaring API 1.2 that sets the slots
# (reserved there) is refused, never called; older tools still run over a job; a sample
# filter over a job is refused (a job's ranks are sessions of their own).
# API 1.4 (issue 32's rest): each rank's call sites (mpi_site) equal the job's MPI CALL
# SITES PER RANK (--mpi-top 0: every row) and their Caller and Module MPI CALL SITES'; each
# recorded call of the --trace mpi=full ranks (mpi_event, streamed), summed per rank and
# function by the tool, equals that function's calls and bytes in the rank's MPI FUNCTION
# SUMMARY TABLE (Rank N) (time within 0.1 %: the events' clock against the rank's sums);
# one rank's session (report -i JOB/rank-N --tool) gets its own rows, equal to its
# report.csv's RANK SUMMARY TABLE and the job's rows of that rank; a tool declaring API 1.3
# that sets mpi_site or mpi_event is refused, never called.
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
# MPI CALL SITES PER RANK: every row (--mpi-top 0), in the tool's order (rank, site)
def site_key(r):
    c = r.split(", ")
    return (int(c[0]), int(c[1]))
sites_want = sorted(table("MPI CALL SITES PER RANK (top 0 per rank)"), key=site_key)
sites_tool = [r.split("|") for r in tool("MPI SITES")]
sites_got = [r[0] for r in sites_tool]
for w, g in zip(sites_want, sites_got):
    if w != g:
        print("site row: report [%s] tool [%s]  <- differ" % (w, g))
bad += sites_want != sites_got or not sites_got
places = {}
for l in table("MPI CALL SITES"):
    c = next(csv.reader([l], skipinitialspace=True))
    places[c[0]] = (c[3], c[4])
for r in sites_tool:
    if places.get(r[0].split(", ")[1]) != (r[1], r[2]):
        print("site place: report %s tool %s  <- differ" % (places.get(r[0].split(", ")[1]), r[1:]))
        bad += 1
# the events summed per rank and function against the rank's function table
funcs = {}
for l in calls_want:
    c = l.split(", ")
    funcs[(c[0], c[1])] = c
nev = 0
for c in csv.reader(table('"MPI EVENTS (Tool - mpiranks)"')):
    nev += 1
    f = funcs.get((c[0], c[1]))
    t = float(f[3]) if f else 0
    # MPI_Start(all)'s event holds no bytes: the function table counts a persistent
    # request's at its start, the event file only at its MPI_*_init
    persistent = c[1] in ("MPI_Start", "MPI_Startall")
    same = f and f[2] == c[2] and (persistent or (f[4] == c[3] and f[5] == c[4])) and abs(int(c[5]) / 1e9 - t) <= 1e-3 * t + 2e-6
    if not same:
        print("events of rank %s %s: tool %s report %s  <- differ" % (c[0], c[1], c[2:], f and f[2:]))
        bad += 1
print("%d ranks, %d function rows (report: %d, %d), %d site rows (report: %d), %d event sums" % (len(got), len(calls_got), len(want), len(calls_want), len(sites_got), len(sites_want), nev))
sys.exit(1 if bad or len(want) != 4 or not calls_want or nev < 4 else 0)
PY
	local rc=$?
	sed 's/^/# /' "$SCRATCH/cmp"
	check "$1: each rank's summary and MPI functions are report.csv's ($(tail -1 "$SCRATCH/cmp"))" [ $rc -eq 0 ]
}

one_family() { # WHAT LAUNCHER... : a 4-rank traced job of mpi_p2p, then the checks
	local what=$1 prog=$2 J; shift 2
	timeout 300 "$@" -np 4 "$UPROF" collect --mpi --trace mpi=full -o "$SCRATCH/$what" \
		"$TGT/$prog" >"$SCRATCH/$what.log" 2>&1
	J=$(ls -d "$SCRATCH/$what"/uprof-*-HPC_MPI_* 2>/dev/null | head -1)
	check "$what: a traced 4-rank job ($J)" [ -n "$J" ]
	[ -n "$J" ] || return
	"$UPROF" report -i "$J" --detail --mpi-top 0 --tool "$T" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "$what: report -i JOBDIR --detail --mpi-top 0 --tool mpiranks.so exits 0 ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
	compare "$what" "$J"
	check "$what: the session callbacks get the job directory" \
		grep -qxF "\"$J\",4" "$J/report.csv"
	one_rank "$what" "$J"
	JOB=$J
}

one_rank() { # WHAT JOBDIR: rank 2's session alone, against its report.csv and the job's
	local R=$2/rank-2
	"$UPROF" report -i "$R" --detail --tool "$T" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "$1: report -i JOB/rank-2 --tool mpiranks.so exits 0 ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
	"$PYTHON" - "$R/report.csv" "$2/report.csv" >"$SCRATCH/cmp1" 2>&1 <<'PY'
import sys
def lines(p):
    return open(p, newline="").read().split("\n")
def table(ls, title):
    i = ls.index(title) + 2
    out = []
    for l in ls[i:]:
        if not l.strip():
            break
        out.append(l)
    return out
def tool(ls, title):
    return [l[1:-1].replace('""', '"') for l in table(ls, '"%s (Tool - mpiranks)"' % title)]
r, j = lines(sys.argv[1]), lines(sys.argv[2])
bad = 0
c = table(r, "RANK SUMMARY TABLE")[0].split(", ")
want = ", ".join([c[0], c[1], c[2], c[4], c[6], c[7], c[9], c[11], c[12], c[13]])
got = tool(r, "MPI RANKS")
print("rank row: report [%s] tool %s" % (want, got))
bad += got != [want]
# its functions and sites: the job's rows of rank 2 (a site's number is the session's own)
jc = [l for l in tool(j, "MPI CALLS") if l.startswith("2, ")]
rc = tool(r, "MPI CALLS")
print("functions: %d, the job's %d%s" % (len(rc), len(jc), "" if rc == jc else "  <- differ"))
bad += rc != jc or not rc
def nosite(l):
    c = l.split("|")[0].split(", ")
    return ", ".join(c[:1] + c[2:])
js = sorted(nosite(l) for l in tool(j, "MPI SITES") if l.startswith("2, "))
rs = sorted(nosite(l) for l in tool(r, "MPI SITES"))
print("sites: %d, the job's %d%s" % (len(rs), len(js), "" if rs == js else "  <- differ"))
bad += rs != js or not rs
je = [l for l in table(j, '"MPI EVENTS (Tool - mpiranks)"') if l.startswith("2,")]
re_ = table(r, '"MPI EVENTS (Tool - mpiranks)"')
print("event sums: %d, the job's %d%s" % (len(re_), len(je), "" if re_ == je else "  <- differ"))
bad += re_ != je or not re_
sys.exit(1 if bad else 0)
PY
	rc=$?
	sed 's/^/# /' "$SCRATCH/cmp1"
	check "$1: one rank's session: its summary is its report.csv's, its functions, sites and events the job's of that rank" [ $rc -eq 0 ]
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
expect_fail 1 "a tool declaring API 1.3 that sets mpi_site and mpi_event (reserved there) is refused" \
	"tool .*mpiranks13.so: refused: sets mpi_site, a slot its tool API 1.3 reserves \(its argument is API 1.4's: rebuild against this uprof_tool.h\)$" \
	"$UPROF" info --tool "$TGT/tools/mpiranks13.so"
if [ -n "${JOB:-}" ]; then
	"$UPROF" report -i "$JOB/rank-1" --tool "$TGT/tools/mpiranks13.so" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "the same over a rank's session: exit 1, refused ($(cat "$SCRATCH/err"))" \
		bash -c "[ $rc = 1 ] && grep -q 'refused: sets mpi_site, a slot its tool API 1.3 reserves' '$SCRATCH/err' && ! grep -qs 'MPI SITES (Tool' '$JOB/rank-1/report.csv'"
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
