#!/usr/bin/env bash
# bench/mpi_instr.sh [N1] [N2]: what the MPI interposer executes per MPI call, counted, not
# timed (issue 29: --trace mpi=full within the 100 ns a call of docs/DESIGN.md §7): a
# count that the machine's load cannot move, beside bench/mpi.sh's times.
# bench/mpi_pingpong.c's "null" mode (MPI_Send to MPI_PROC_NULL, one rank started as an
# MPI singleton: no launcher, so valgrind runs the rank itself) does N1 then N2 calls
# (default 100000, 200000) under `valgrind --tool=cachegrind --cache-sim=yes`, in three
# variants:
#   bare     the program alone
#   lwt      the interposer preloaded, aggregates only (collect --trace mpi)
#   full     the interposer with its events file too (collect --trace mpi=full), a cap
#            above the calls: every call an event
# Each figure is the difference between the N2 and the N1 run over N2 - N1 calls, so that
# MPI_Init, MPI_Finalize and the flush drop out; "added" is the variant's less bare's.
# Instructions (Ir) repeat from run to run to within a few per call (Open MPI's init is
# the same work); the cache columns are cachegrind's model (D1 32 KiB, the last level set
# to 1 MiB, about a loaded core's share here), not the CPU's, and say where a buffer
# stops fitting.
# What it does not show: the kernel's work (the events file's pwrite: a syscall every
# chunk, the page-cache copy of 64 bytes a call) and the clock reads' vDSO part, which
# valgrind runs as system calls. bench/mpi.sh times everything together.
# LIB=/other/libuprof_mpi_openmpi.so measures another build's interposer.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LIB=${LIB:-$ROOT/build/lib/libuprof_mpi_openmpi.so}
N1=${1:-100000}
N2=${2:-200000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-mpi-instr.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
die() { echo "mpi_instr: $*" >&2; exit 1; }

((N2 > N1 && N1 > 0)) || die "N2 ($N2) must be above N1 ($N1), both above 0"
command -v valgrind >/dev/null || die "valgrind is missing (scripts/install-deps.sh)"
command -v mpicc >/dev/null || die "mpicc (Open MPI) is missing (scripts/install-deps.sh)"
[[ -r $LIB ]] || die "$LIB is missing (make builds it when mpicc is installed)"
mpicc -O2 -o "$TMP/pp" "$ROOT/bench/mpi_pingpong.c" || die "mpi_pingpong: build failed"

# run VARIANT N: the run's cachegrind summary "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw"
run() {
	local v=$1 n=$2 out=$TMP/$1.$2 ev=
	local -a env=()
	[[ $v == full ]] && ev=$((n + 64))
	mkdir -p "$out.mpi"
	[[ $v != bare ]] && env=(LD_PRELOAD="$LIB" UPROF_MPI_DIR="$out.mpi" UPROF_MPI_EVENTS="$ev")
	env "${env[@]}" valgrind -q --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 \
		"--cachegrind-out-file=$out.cg" "$TMP/pp" null "$n" >"$out.log" 2>&1 ||
		{ cat "$out.log" >&2; die "$v $n failed"; }
	grep -q '^ns_per_call ' "$out.log" || { cat "$out.log" >&2; die "$v $n: no result line"; }
	if [[ $v == full ]]; then # the events file holds every call: the variant did its work
		ls "$out.mpi" | grep -q '\.mpiev$' || die "full $n wrote no events file"
	fi
	rm -rf "$out.mpi"
	awk '/^events:/ { for (i = 2; i <= NF; i++) name[i - 1] = $i }
		/^summary:/ { for (i = 2; i <= NF; i++) v[name[i - 1]] = $i }
		END { print v["Ir"], v["Dw"], v["D1mw"], v["DLmw"] }' "$out.cg"
}

# per VARIANT: "Ir Dw D1mw DLmw" per call, (N2 run - N1 run) / (N2 - N1)
per() {
	local a b
	a=$(run "$1" "$N1") || exit 1
	b=$(run "$1" "$N2") || exit 1
	echo "$a $b" |
		awk -v n=$((N2 - N1)) '{ printf "%.1f %.2f %.3f %.3f\n", ($5 - $1) / n,
			($6 - $2) / n, ($7 - $3) / n, ($8 - $4) / n }'
}

echo "mpi_instr: $(date -u '+%Y-%m-%d %H:%M UTC'), $LIB (tree $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?')), N1=$N1 N2=$N2, $(valgrind --version)"
echo
echo "| variant | Ir/call | added Ir/call | stores/call | D1 write misses/call | LL write misses/call |"
echo "|---|---:|---:|---:|---:|---:|"
read -r bir bdw bd1 bdl <<<"$(per bare)"
printf '| bare | %s | - | %s | %s | %s |\n' "$bir" "$bdw" "$bd1" "$bdl"
for v in lwt full; do
	read -r ir dw d1 dl <<<"$(per $v)"
	printf '| %s | %s | %s | %s | %s | %s |\n' \
		"$([[ $v == lwt ]] && echo "--trace mpi" || echo "--trace mpi=full")" \
		"$ir" "$(awk -v a="$ir" -v b="$bir" 'BEGIN { printf "%.1f", a - b }')" "$dw" "$d1" "$dl"
done
