#!/usr/bin/env bash
# report --category (uProf's domains): each of cpu, mpi, openmp and os writes only its
# own sections, word for word those of the full report; together they are the full report;
# a GPU domain or an unknown word is refused in one line, exit 2, and report.csv is kept.
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect --trace openmp --trace os -o "$SCRATCH/s" "$TGT/omp_regions" >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
"$UPROF" report -i "$S" >/dev/null 2>&1
cp "$S/report.csv" "$SCRATCH/all.csv"
for c in cpu mpi openmp os cpu,os; do
	"$UPROF" report -i "$S" --category "$c" --report-output "$SCRATCH/$c.csv" >/dev/null 2>&1
done
# blocks: blank-line separated; the EXECUTION block names the report command, so differs
blocks() {
	"$PYTHON" - "$@" <<'PY'
import sys
text = open(sys.argv[1]).read()
for b in text.split("\n\n"):
    b = b.strip("\n")
    if b and "Report Command:" not in b:
        print(b.split("\n")[0] + "\t" + str(abs(hash(b))))
PY
}
export PYTHONHASHSEED=0
blocks "$SCRATCH/all.csv" | sort >"$SCRATCH/all.b"
for c in cpu mpi openmp os cpu,os; do blocks "$SCRATCH/$c.csv" | sort >"$SCRATCH/$c.b"; done
# block titles of each domain
CPU_RE='HOTTEST FUNCTIONS'
OMP_RE='^OpenMP [A-Z]\|^OPENMP [A-Z]'
OS_RE='^SYSTEM CALL\|^THREAD STATES'
check "the full report has CPU, OpenMP and OS sections" \
	bash -c "grep -q '$CPU_RE' '$SCRATCH/all.b' && grep -q '$OMP_RE' '$SCRATCH/all.b' && grep -q '$OS_RE' '$SCRATCH/all.b'"
for c in cpu mpi openmp os cpu,os; do
	check "--category $c wrote its report" [ -s "$SCRATCH/$c.b" ]
done
for c in cpu mpi openmp os cpu,os; do
	check "--category $c: every block is the full report's, word for word ($(comm -23 "$SCRATCH/$c.b" "$SCRATCH/all.b" | cut -f1 | paste -sd'|'))" \
		[ -z "$(comm -23 "$SCRATCH/$c.b" "$SCRATCH/all.b")" ]
done
check "--category os has the OS sections and no OpenMP or hottest-function one" \
	bash -c "grep -q '$OS_RE' '$SCRATCH/os.b' && ! grep -q '$OMP_RE\|$CPU_RE' '$SCRATCH/os.b'"
check "--category openmp has the OpenMP sections and no OS or hottest-function one" \
	bash -c "grep -q '$OMP_RE' '$SCRATCH/openmp.b' && ! grep -q '$OS_RE\|$CPU_RE' '$SCRATCH/openmp.b'"
check "--category cpu has the hottest functions and no OpenMP or OS section" \
	bash -c "grep -q '$CPU_RE' '$SCRATCH/cpu.b' && ! grep -q '$OMP_RE\|$OS_RE' '$SCRATCH/cpu.b'"
check "--category cpu,os is cpu's blocks and os's" \
	[ "$(sort -u "$SCRATCH/cpu.b" "$SCRATCH/os.b")" = "$(cat "$SCRATCH/cpu,os.b")" ]
check "cpu, mpi, openmp and os together are the full report" \
	[ "$(sort -u "$SCRATCH/cpu.b" "$SCRATCH/mpi.b" "$SCRATCH/openmp.b" "$SCRATCH/os.b")" = "$(sort -u "$SCRATCH/all.b")" ]
for bad in gputrace cpu,bogus ''; do
	"$UPROF" report -i "$S" --category "$bad" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	check "--category '$bad': exit 2, one line ($(cat "$SCRATCH/err"))" \
		[ $rc -eq 2 -a "$(wc -l <"$SCRATCH/err")" -eq 1 ]
done
check "report.csv is kept by a refused --category" cmp -s "$S/report.csv" "$SCRATCH/all.csv"

# An MPI job (2 ranks of mpi_p2p under Open MPI): mpi is the job's MPI sections alone,
# cpu its hottest functions, processes, modules and threads alone
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_p2p.openmpi" ]; then
	timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$UPROF" collect --trace mpi \
		-o "$SCRATCH/job" "$TGT/mpi_p2p.openmpi" >/dev/null 2>&1
	J=$(ls -d "$SCRATCH"/job/uprof-*-HPC_MPI_* 2>/dev/null | head -1)
	for c in all mpi cpu; do
		cat=(--category "$c")
		[ "$c" = all ] && cat=()
		"$UPROF" report -i "$J" "${cat[@]}" --report-output "$SCRATCH/j$c.csv" >/dev/null 2>&1
		blocks "$SCRATCH/j$c.csv" | sort >"$SCRATCH/j$c.b"
	done
	check "job: the full report has the MPI and hottest-function sections" \
		bash -c "grep -q '^MPI TRACING' '$SCRATCH/jall.b' && grep -q 'HOTTEST FUNCTIONS' '$SCRATCH/jall.b'"
	check "job: --category mpi has the MPI sections, no hottest table, each block the full report's" \
		bash -c "grep -q '^MPI TRACING' '$SCRATCH/jmpi.b' && ! grep -q 'HOTTEST' '$SCRATCH/jmpi.b' && [ -z \"\$(comm -23 '$SCRATCH/jmpi.b' '$SCRATCH/jall.b')\" ]"
	check "job: --category cpu has the hottest functions and no MPI section, each block the full report's" \
		bash -c "grep -q 'HOTTEST FUNCTIONS' '$SCRATCH/jcpu.b' && ! grep -q '^MPI TRACING\|^COMMUNICATION' '$SCRATCH/jcpu.b' && [ -z \"\$(comm -23 '$SCRATCH/jcpu.b' '$SCRATCH/jall.b')\" ]"
else
	ok "job categories # SKIP no mpirun or $TGT/mpi_p2p.openmpi (scripts/install-deps.sh)"
fi
echo "1..$_n"
