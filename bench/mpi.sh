#!/usr/bin/env bash
# The MPI interposer's cost (docs/DESIGN.md §7: <= 100 ns added per MPI call), and what
# collect adds to a 4-rank job, each beside the bare runs of the same rounds.
#   bench/mpi.sh [quick]      Open MPI (mpicc, mpirun); MPICH the same with MPI=mpich
# Rounds interleave every variant (the order rotated each round), so that load drifts hit
# them all; each line gives the median and the spread (the interquartile range, q1-q3) of
# its rounds. An added cost is "unresolved" when it is smaller than the spread of either
# side, or negative (an interposer makes no call faster: that is noise): this machine
# could not see it, and the line says so rather than "met".
# BASE_LIB=/other/build/lib/libuprof_mpi_openmpi.so adds that interposer's --trace mpi=full
# to the call rounds ("full, base"), interleaved with this build's: a before/after in one
# run.
set -u
UPROF=${UPROF:-$PWD/build/bin/uprof}
MPI=${MPI:-openmpi}
LIB=$(dirname "$UPROF")/../lib/libuprof_mpi_$MPI.so
ROUNDS=${ROUNDS:-7}
N_NULL=${N_NULL:-2000000}
N_PP=${N_PP:-100000}
SPIN_MS=${SPIN_MS:-200}
[ "${1:-}" = quick ] && ROUNDS=3 N_NULL=500000 N_PP=20000 SPIN_MS=100
if [ "$MPI" = mpich ]; then CC=mpicc.mpich RUN=(mpirun.mpich) PASS=(); else
	CC=mpicc RUN=(mpirun --allow-run-as-root --oversubscribe)
	PASS=(-x LD_PRELOAD -x UPROF_MPI_DIR -x UPROF_MPI_EVENTS); fi
OUT=$(mktemp -d /tmp/uprof-bench-mpi.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
[ -r "$LIB" ] || { echo "no $LIB: make builds it when $CC is installed" >&2; exit 1; }
"$CC" -O2 -o "$OUT/pp" bench/mpi_pingpong.c || exit 1
"$CC" -O2 -o "$OUT/spin" tests/targets/mpi_spin.c || exit 1
mkdir -p "$OUT/mpi"

# stats FILE: "median q1 q3" of its numbers (q1, q3: the middle values of each half)
stats() {
	sort -g "$1" | awk '{v[NR]=$1} END{n=NR; h=int(n/2);
		m=(n%2)?v[(n+1)/2]:(v[h]+v[h+1])/2
		q1=(h%2)?v[(h+1)/2]:(v[h/2]+v[h/2+1])/2
		o=n-h; q3=(h%2)?v[o+(h+1)/2]:(v[o+h/2]+v[o+h/2+1])/2
		if (n<4) {q1=v[1]; q3=v[n]}
		print m, q1, q3}'
}
# verdict BARE_STATS WITH_STATS GOAL("-": none): added, the larger spread, and what they say
verdict() {
	awk -v b="$1" -v w="$2" -v g="$3" 'BEGIN{split(b,x," "); split(w,y," ")
		add=y[1]-x[1]; s1=x[3]-x[2]; s2=y[3]-y[2]; s=(s1>s2)?s1:s2
		if (add<0) v="unresolved (negative: noise)"
		else if (add<=s) v="unresolved (spread " sprintf("%.1f",s) " > effect)"
		else if (g=="-") v="resolved"
		else if (add<=g) v="met (<= " g " ns)"
		else v="MISSED (<= " g " ns)"
		printf "%.1f|%s", add, v}'
}
cell() { awk -v s="$1" 'BEGIN{split(s,x," "); printf "%.1f [%.1f-%.1f]", x[1], x[2], x[3]}'; }

# one call benchmark: MODE N NP VARIANT(bare|lwt|full)
calls() {
	local env=()
	case $4 in
	lwt) env=(LD_PRELOAD="$LIB" UPROF_MPI_DIR="$OUT/mpi" UPROF_MPI_EVENTS=) ;;
	full) env=(LD_PRELOAD="$LIB" UPROF_MPI_DIR="$OUT/mpi" UPROF_MPI_EVENTS=$(($2 + 64))) ;;
	fullbase) env=(LD_PRELOAD="$BASE_LIB" UPROF_MPI_DIR="$OUT/mpi" UPROF_MPI_EVENTS=$(($2 + 64))) ;;
	esac
	if [ $4 = bare ]; then "${RUN[@]}" -np "$3" "$OUT/pp" "$1" "$2"
	else env "${env[@]}" "${RUN[@]}" "${PASS[@]}" -np "$3" "$OUT/pp" "$1" "$2"; fi 2>/dev/null |
		sed -n 's/^ns_per_call //p'
	# full runs write their events as each 64 KiB chunk fills (in the timing) and the rest at
	# MPI_Finalize (after it): the files counted, removed
	ls "$OUT/mpi" | grep -c '\.mpiev$' >>"$OUT/evfiles"
	rm -f "$OUT/mpi"/*.mpiev
}
wall() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
# the 4-rank job (rank r spins (r+1) x SPIN_MS of CPU): VARIANT(bare|collect|lwt|full)
job() {
	case $1 in
	bare) wall "${RUN[@]}" -np 4 "$OUT/spin" "$SPIN_MS" ;;
	collect) wall "${RUN[@]}" -np 4 "$UPROF" collect --mpi -o "$OUT/jobs" "$OUT/spin" "$SPIN_MS" ;;
	lwt) wall "${RUN[@]}" -np 4 "$UPROF" collect --trace mpi -o "$OUT/jobs" "$OUT/spin" "$SPIN_MS" ;;
	full) wall "${RUN[@]}" -np 4 "$UPROF" collect --trace mpi=full -o "$OUT/jobs" "$OUT/spin" "$SPIN_MS" ;;
	esac
	rm -rf "$OUT/jobs"
}
# rounds KIND VARIANTS...: every variant once a round, the order rotated each round
rounds() {
	local kind=$1 r i k n; shift
	n=$#
	for r in $(seq 0 $((ROUNDS - 1))); do
		for i in $(seq 0 $((n - 1))); do
			k=$(((i + r) % n + 1))
			v=${!k}
			case $kind in
			null) calls null "$N_NULL" 1 "$v" ;;
			pp) calls pp "$N_PP" 2 "$v" ;;
			job) job "$v" ;;
			esac >>"$OUT/$kind.$v"
		done
	done
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
BASE=${BASE_LIB:+fullbase}
[ -z "${BASE_LIB:-}" ] || [ -r "$BASE_LIB" ] || { echo "no $BASE_LIB (BASE_LIB)" >&2; exit 1; }
rounds null bare lwt full $BASE
rounds pp bare lwt full $BASE
rounds job bare collect lwt full
load1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "| $MPI, $ROUNDS interleaved rounds: median [q1-q3] | bare | with | added | verdict |"
echo "|---|---|---|---|---|"
for kind in null pp; do
	[ $kind = null ] && what="MPI_Send to MPI_PROC_NULL, ns per call" ||
		what="zero-byte ping-pong, ns per call"
	b=$(stats "$OUT/$kind.bare")
	for v in lwt full $BASE; do
		w=$(stats "$OUT/$kind.$v")
		IFS='|' read -r add says <<<"$(verdict "$b" "$w" 100)"
		printf '| %s, interposed (%s) | %s | %s | %s | %s |\n' "$what" \
			"$(case $v in lwt) echo "--trace mpi" ;; full) echo "--trace mpi=full" ;;
				fullbase) echo "--trace mpi=full, base" ;; esac)" \
			"$(cell "$b")" "$(cell "$w")" "$add" "$says"
	done
done
b=$(stats "$OUT/job.bare")
for v in collect lwt full; do
	w=$(stats "$OUT/job.$v")
	IFS='|' read -r add says <<<"$(verdict "$b" "$w" -)"
	printf '| 4-rank job wall time, s: uprof collect %s | %s | %s | %s | %s |\n' \
		"$(case $v in collect) echo --mpi ;; lwt) echo "--trace mpi" ;; full) echo "--trace mpi=full" ;; esac)" \
		"$(cell "$b")" "$(cell "$w")" "$add" "$says"
done
echo "(load average before: $load0, after: $load1; the interposed call runs wrote $(ls "$OUT/mpi" | grep -c '\.mpi$') .mpi and $(awk '{s+=$1} END{print s+0}' "$OUT/evfiles") .mpiev files)" >&2
