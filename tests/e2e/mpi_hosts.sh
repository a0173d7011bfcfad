#!/usr/bin/env bash
# MPI jobs over several hosts, and the job report's shared symbols (issue 29). Two "hosts"
# on this machine: the ranks of one job launched as two groups (the launcher's MPMD ':'),
# each rank in a UTS namespace of its own (unshare -u) named h0 or h1 before uprof
# collect starts. Hosts' clocks cannot differ on one machine, so the merge is checked on a
# copy of the job whose job.ini gives h1's ranks a clock offset 2.5 s larger: on the job's
# time line (MPI RANK TIMELINE) every h1 time must move by exactly that against every h0
# time. And the job report, whose ranks share one symbol table per host, must name and
# count every function and module as the ranks' own reports (each read alone) do.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
SHIFT_NS=2500000000
UNIT_MS=${UNIT_MS:-100}
have_ompi() { command -v mpirun >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ]; }
have_mpich() { command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_spin.mpich" ]; }
# a UTS namespace of our own: root and a kernel with them
can_unshare() { [ "$(id -u)" -eq 0 ] && unshare -u true 2>/dev/null; }
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
# what runs the rest of a launcher's app context in a UTS namespace of its own, whose host
# name is the command's first argument
AS_HOST=(unshare -u sh -c 'hostname "$0" && exec "$@"')

# timeline FILE: MPI RANK TIMELINE's rows, tab-separated, by rank
timeline() { csvq "$1" "MPI RANK TIMELINE" | sort -n; }

# shift_check WHAT BEFORE.csv AFTER.csv: every h1 time moved by exactly SHIFT_NS against
# every h0 time, h0's times among themselves did not move, and h1's offsets grew by it
shift_check() {
	local what=$1
	timeline "$2" >"$SCRATCH/tl.before"
	timeline "$3" >"$SCRATCH/tl.after"
	check "$what: a shifted offset moves h1's ranks by exactly $SHIFT_NS ns on the time line" \
		"$PYTHON" - "$SCRATCH/tl.before" "$SCRATCH/tl.after" "$SHIFT_NS" <<'EOF'
import sys
def ns(s):  # "s.nnnnnnnnn" exactly, "" for none
    if not s:
        return None
    neg = s.startswith("-")
    a, b = s.lstrip("-").split(".")
    v = int(a) * 10**9 + int(b)
    return -v if neg else v
def rows(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        out[int(f[0])] = (f[1], int(f[2]), [ns(x) for x in f[3:7]])
    return out
b, a, shift = rows(sys.argv[1]), rows(sys.argv[2]), int(sys.argv[3])
h0 = [r for r in b if b[r][0] == "h0"]
h1 = [r for r in b if b[r][0] == "h1"]
bad = []
if not h0 or not h1 or sorted(a) != sorted(b):
    bad.append("ranks: h0 %s h1 %s after %s" % (h0, h1, sorted(a)))
ref = h0[0] if h0 else None
for r in b:
    host, off, tb = b[r]
    want = shift if host == "h1" else 0
    if a[r][1] - off != want:
        bad.append("rank %d offset %d -> %d" % (r, off, a[r][1]))
    for c in range(4):
        if tb[c] is None or b[ref][2][c] is None:
            continue
        moved = (a[r][2][c] - a[ref][2][c]) - (tb[c] - b[ref][2][c])
        if moved != want:
            bad.append("rank %d column %d moved %d ns against rank %d" % (r, c, moved, ref))
print("# " + ("; ".join(bad) if bad else "%d h1 ranks moved %d ns, %d h0 ranks 0" % (len(h1), shift, len(h0))))
sys.exit(1 if bad else 0)
EOF
}

# same_as_ranks WHAT JOB: the job report's functions and modules (all rows) are the sums
# of the ranks' own reports, each read by a report of its own (no symbols shared)
same_as_ranks() {
	local what=$1 J=$2 r
	"$UPROF" report -i "$J" --cutoff 0 >/dev/null 2>&1
	cp "$J/report.csv" "$SCRATCH/job_all.csv"
	for r in $(sed -n 's/^\[rank\.\([0-9]*\)\]$/\1/p' "$J/job.ini"); do
		"$UPROF" report -i "$J/rank-$r" --cutoff 0 >/dev/null 2>&1
		cp "$J/rank-$r/report.csv" "$SCRATCH/rank_all.$r.csv"
	done
	for t in FUNCTIONS MODULES; do
		csvq "$SCRATCH/job_all.csv" "ALL $t" | awk -F'\t' '{ printf "%s\t%s\t%d\n", $1, $3, $2 * 1000 + 0.5 }' |
			sort >"$SCRATCH/job.$t"
		for f in "$SCRATCH"/rank_all.*.csv; do csvq "$f" "ALL $t"; done |
			awk -F'\t' '{ n[$1 "\t" $3] += int($2 * 1000 + 0.5) } END { for (k in n) printf "%s\t%d\n", k, n[k] }' |
			sort >"$SCRATCH/ranks.$t"
		check "$what: the job's $(wc -l <"$SCRATCH/job.$t") $t rows are the ranks' own reports' sums" \
			cmp -s "$SCRATCH/job.$t" "$SCRATCH/ranks.$t"
	done
	check "$what: the job names the program's function spin_units" \
		grep -q '^spin_units	' "$SCRATCH/job.FUNCTIONS"
}

# two_hosts WHAT OUT LAUNCHER...: -np 2 on h0 : -np 2 on h1 (mpirun's MPMD form, which
# both families take)
two_hosts() {
	local what=$1 out=$2 prog=$3
	shift 3
	timeout 300 "$@" -np 2 "${AS_HOST[@]}" h0 "$UPROF" collect --trace mpi -o "$out" "$prog" \
		"$UNIT_MS" : -np 2 "${AS_HOST[@]}" h1 "$UPROF" collect --trace mpi -o "$out" "$prog" \
		"$UNIT_MS" >"$out.log" 2>&1
	check "$what: a job of 2 ranks on h0 and 2 on h1 exits 0" [ $? -eq 0 ]
}

host_checks() {
	local what=$1 J=$2 R
	check "$what: job.ini puts ranks 0-1 on h0 and 2-3 on h1" [ "$(awk -F' = ' \
		'/^\[rank\./ { r = $0 } /^host = / { print r, $2 }' "$J/job.ini" | sort | tr '\n' ' ')" \
		= "[rank.0] h0 [rank.1] h0 [rank.2] h1 [rank.3] h1 " ]
	"$UPROF" report -i "$J" >/dev/null 2>"$SCRATCH/err"
	check "$what: report over both hosts exits 0" [ $? -eq 0 ]
	R=$J/report.csv
	cp "$R" "$SCRATCH/both.csv"
	check "$what: MPI Ranks Per Node is h0 2, h1 2" [ "$(sed -n '/^MPI Ranks Per Node$/,/^$/p' "$R" |
		tr '\n' ' ')" = 'MPI Ranks Per Node h0,2 h1,2  ' ]
	check "$what: 2 MPI hosts" grep -qx 'Number Of MPI hosts,"2"' "$R"
	check "$what: every rank on the time line" [ "$(timeline "$R" | cut -f1-2 | tr '\t\n' ': ')" = \
		"0:h0 1:h0 2:h1 3:h1 " ]
	check_sh "$what: each rank's start <= MPI_Init <= MPI data written <= end, on the line" \
		'timeline "$R" | awk -F"\t" "{ if (!(\$4 <= \$5 && \$5 <= \$6 && \$6 <= \$7)) bad = 1 } END { exit bad }"'
	check "$what: the first rank starts the time line at 0" \
		[ "$(timeline "$R" | cut -f4 | sort -n | head -n1)" = 0.000000000 ]
	"$UPROF" report -i "$J" --host h1 >/dev/null 2>&1
	check "$what: --host h1: ranks 2-3 reported" grep -qx 'MPI Ranks Reported:,"2-3"' "$R"
	check "$what: --host h1: MPI Ranks Per Node is h1 2" [ "$(sed -n '/^MPI Ranks Per Node$/,/^$/p' "$R" |
		tr '\n' ' ')" = 'MPI Ranks Per Node h1,2  ' ]
	check "$what: --host h1: the time line holds ranks 2 and 3" \
		[ "$(timeline "$R" | cut -f1 | tr '\n' ' ')" = "2 3 " ]
	expect_fail 1 "$what: --host of no rank" "no rank of the job is selected" \
		"$UPROF" report -i "$J" --host h9
	# the merge: h1's clock 2.5 s ahead, in a copy whose job.ini says so
	rm -rf "$SCRATCH/shifted"
	cp -a "$J" "$SCRATCH/shifted"
	"$PYTHON" - "$SCRATCH/shifted/job.ini" "$SHIFT_NS" <<'EOF'
import re, sys
path, shift = sys.argv[1], int(sys.argv[2])
out, host = [], {}
sections = open(path).read().split("\n\n")
for s in sections:
    if re.search(r"^host = h1$", s, re.M):
        s = re.sub(r"^clock_offset_ns = (-?\d+)$",
                   lambda m: "clock_offset_ns = %d" % (int(m.group(1)) + shift), s, flags=re.M)
    out.append(s)
open(path, "w").write("\n\n".join(out))
EOF
	"$UPROF" report -i "$SCRATCH/shifted" >/dev/null 2>&1
	check "$what: report of the shifted copy exits 0" [ $? -eq 0 ]
	shift_check "$what" "$SCRATCH/both.csv" "$SCRATCH/shifted/report.csv"
}

if ! can_unshare; then
	ok "two-host jobs # SKIP unshare -u failed (needs root and UTS namespaces)"
else
	if have_ompi; then
		two_hosts "Open MPI" "$SCRATCH/o" "$TGT/mpi_spin.openmpi" "${OMPIRUN[@]}"
		JO=$(one_job "$SCRATCH/o")
		check "Open MPI: one job directory" [ -n "$JO" ]
		[ -n "$JO" ] && host_checks "Open MPI" "$JO" && same_as_ranks "Open MPI" "$JO"
	else
		ok "Open MPI two-host job # SKIP no mpirun or $TGT/mpi_spin.openmpi (scripts/install-deps.sh)"
	fi
	if have_mpich; then
		two_hosts "MPICH" "$SCRATCH/m" "$TGT/mpi_spin.mpich" mpirun.mpich
		JM=$(one_job "$SCRATCH/m")
		check "MPICH: one job directory" [ -n "$JM" ]
		[ -n "$JM" ] && host_checks "MPICH" "$JM" && same_as_ranks "MPICH" "$JM"
	else
		ok "MPICH two-host job # SKIP no mpirun.mpich or $TGT/mpi_spin.mpich (scripts/install-deps.sh)"
	fi
fi

# a rank whose job.ini line has no clock offset is put on the line by its session's own
# clocks (session.ini's start epoch - start monotonic), not left off
if [ -n "${JO:-}" ]; then
	rm -rf "$SCRATCH/nooff"
	cp -a "$JO" "$SCRATCH/nooff"
	sed -i '/^\[rank\.3\]$/,/^$/{/^clock_offset_ns = /d}' "$SCRATCH/nooff/job.ini"
	"$UPROF" report -i "$SCRATCH/nooff" >/dev/null 2>&1
	want=$(( $(sed -n 's/^start_epoch_ns = //p' "$SCRATCH/nooff/rank-3/session.ini") - \
		$(sed -n 's/^start_mono_ns = //p' "$SCRATCH/nooff/rank-3/session.ini") ))
	check "a rank without clock_offset_ns: its session's ($want)" \
		[ "$(timeline "$SCRATCH/nooff/report.csv" | awk -F'\t' '$1 == 3 { print $3 }')" = "$want" ]
fi
echo "1..$_n"
