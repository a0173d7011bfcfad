#!/usr/bin/env bash
# The MPI interposer's cost (docs/DESIGN.md §7: <= 100 ns added per MPI call), and what
# collect --trace mpi adds to a 4-rank job, side by side with the bare job.
#   bench/mpi.sh [quick]      Open MPI (mpicc, mpirun); MPICH the same with MPI=mpich
# Medians of alternating rounds, bare and interposed, so that load drifts hit both.
set -u
UPROF=${UPROF:-$PWD/build/bin/uprof}
MPI=${MPI:-openmpi}
LIB=$(dirname "$UPROF")/../lib/libuprof_mpi_$MPI.so
ROUNDS=${ROUNDS:-7}
N_NULL=${N_NULL:-2000000}
N_PP=${N_PP:-100000}
[ "${1:-}" = quick ] && ROUNDS=3 N_NULL=500000 N_PP=20000
if [ "$MPI" = mpich ]; then CC=mpicc.mpich RUN=(mpirun.mpich); else
	CC=mpicc RUN=(mpirun --allow-run-as-root --oversubscribe); fi
OUT=$(mktemp -d /tmp/uprof-bench-mpi.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
[ -r "$LIB" ] || { echo "no $LIB: make builds it when $CC is installed" >&2; exit 1; }
"$CC" -O2 -o "$OUT/pp" bench/mpi_pingpong.c || exit 1
"$CC" -O2 -o "$OUT/spin" tests/targets/mpi_spin.c || exit 1
mkdir -p "$OUT/mpi"
median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
one() { # MODE N PRELOAD(0|1) NP
	if [ "$3" = 1 ]; then
		env LD_PRELOAD="$LIB" UPROF_MPI_DIR="$OUT/mpi" "${RUN[@]}" -x LD_PRELOAD -x UPROF_MPI_DIR \
			-np "$4" "$OUT/pp" "$1" "$2" 2>/dev/null
	else
		"${RUN[@]}" -np "$4" "$OUT/pp" "$1" "$2" 2>/dev/null
	fi | sed -n 's/^ns_per_call //p'
}
[ "$MPI" = mpich ] && one() {
	if [ "$3" = 1 ]; then
		LD_PRELOAD="$LIB" UPROF_MPI_DIR="$OUT/mpi" "${RUN[@]}" -np "$4" "$OUT/pp" "$1" "$2" 2>/dev/null
	else
		"${RUN[@]}" -np "$4" "$OUT/pp" "$1" "$2" 2>/dev/null
	fi | sed -n 's/^ns_per_call //p'
}
for mode in null pp; do
	n=$N_NULL np=1; [ $mode = pp ] && n=$N_PP np=2
	: >"$OUT/bare" ; : >"$OUT/with"
	for r in $(seq "$ROUNDS"); do
		one $mode $n 0 $np >>"$OUT/bare"
		one $mode $n 1 $np >>"$OUT/with"
	done
	b=$(median <"$OUT/bare") w=$(median <"$OUT/with")
	echo "$mode $b $w" >>"$OUT/calls"
done
files=$(ls "$OUT/mpi" | grep -c '\.mpi$')
# a 4-rank job (rank r spins (r+1) x 200 ms of CPU), bare and under collect --trace mpi
wall() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
: >"$OUT/jb"; : >"$OUT/jc"
for r in $(seq "$ROUNDS"); do
	wall "${RUN[@]}" -np 4 "$OUT/spin" 200 >>"$OUT/jb"
	wall "${RUN[@]}" -np 4 "$UPROF" collect --trace mpi -o "$OUT/jobs" "$OUT/spin" 200 >>"$OUT/jc"
	rm -rf "$OUT/jobs"
done
jb=$(median <"$OUT/jb") jc=$(median <"$OUT/jc")
echo "| $MPI ($ROUNDS rounds, medians) | bare | interposed / under uprof | added | goal |"
echo "|---|---|---|---|---|"
while read -r mode b w; do
	add=$(echo "$w - $b" | bc -l)
	goal=$(echo "$add <= 100" | bc -l)
	[ $mode = null ] && what="MPI_Send to MPI_PROC_NULL, ns per call" || what="zero-byte ping-pong, ns per call"
	printf '| %s | %.1f | %.1f | %.1f | %s |\n' "$what" "$b" "$w" "$add" "$([ "$goal" = 1 ] && echo "met (<= 100 ns)" || echo "MISSED (<= 100 ns)")"
done <"$OUT/calls"
printf '| 4-rank job wall time, s | %.2f | %.2f | %.2f (%.0f %%) | - |\n' "$jb" "$jc" \
	"$(echo "$jc - $jb" | bc -l)" "$(echo "100 * ($jc - $jb) / $jb" | bc -l)"
echo "(interposed runs wrote $files MPI data files)" >&2
