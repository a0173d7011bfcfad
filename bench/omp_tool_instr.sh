#!/usr/bin/env bash
# bench/omp_tool_instr.sh [N1] [N2]: instructions the OMPT tool executes per callback in a
# real program (issue 28, must show 6), counted, not timed: a count that the machine's load
# cannot move. bench/omp_tiny_regions.c runs N1 then N2 tiny regions (default 2000, 6000),
# empty or loop, on 2 and 4 threads, passive waiting (OMP_WAIT_POLICY=passive
# KMP_BLOCKTIME=0: an active wait's spinning counts instructions by how long the other
# thread took, which the count should not depend on), under
# `valgrind --tool=callgrind`, in four variants:
#   bare     the program alone
#   count    OMP_TOOL_LIBRARIES=bench/tools/ompt_count.c: a tool registering the same
#            callbacks, each one relaxed atomic add (the runtime's own OMPT work)
#   basic    uprof collect --trace openmp -- valgrind ... (uprof's tool in the target)
#   full     ... --openmp-scope full
# bench/tools/cg_calls.py reads each profile: every call from outside the tool's library
# into it (libomp calling a callback) with its inclusive instruction count (Ir: the
# callback, the ring write, everything it called). Each figure is the difference between
# the N2 and the N1 run divided by N2 - N1 regions, so that start-up, thread creation and
# the flush at exit (once per process) drop out; per callback is that over the callbacks
# per region counted the same way. The tool's counts repeat from run to run to the
# instruction; libomp's vary by up to ~10 % (valgrind runs one thread at a time, and when
# it switches decides how often a thread finds a barrier released before it sleeps): the
# runtime's columns are for scale.
# Cache (a second table): callgrind runs with --cache-sim=yes, so each profile also counts
# data references and simulated first-level (D1) and last-level (LL) data misses, the
# tool's calls' inclusive ones per callback and the whole process's per region (bare
# against traced: the misses tracing adds, the runtime's too). The simulated caches are
# the host's sizes but ONE cache for all threads (valgrind runs one thread at a time), so
# a miss here is a line the tool touches for the first time or had evicted, never a line
# another CPU took (coherence is not simulated): a count of the tool's footprint, which
# the machine's load cannot move either. D1=SIZE,ASSOC,LINE (callgrind's --D1) simulates
# a smaller first-level cache: with one of a few lines (D1=2048,2,64), which the runtime's
# own work between two callbacks evicts, a callback's D1 misses approach the lines it
# touches, as after a futex sleep on a busy CPU.
# What it does not show: time. An instruction that waits for a cache line another CPU
# wrote (the ring's head, a slot, an instance the primary thread wrote), a clock read
# (valgrind runs clock_gettime as a system call: its user-space part, a few instructions,
# is counted, the vDSO's kvm-clock read is not), and the CPU's IPC. bench/omp_real_cost.sh
# times them together.
# UPROF=/other/build/bin/uprof compares another build. ONLY="empty:2 loop:4" runs those.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UPROF=${UPROF:-$ROOT/build/bin/uprof}
N1=${1:-2000}
N2=${2:-6000}
B=$ROOT/build/bench
TMP=$(mktemp -d "${TMPDIR:-/tmp}"/uprof-omp-instr.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
die() { echo "omp_tool_instr: $*" >&2; exit 1; }

((N2 > N1 && N1 > 0)) || die "N2 ($N2) must be above N1 ($N1), both above 0"
command -v valgrind >/dev/null || die "valgrind is missing (scripts/install-deps.sh)"
mkdir -p "$B"
gcc -O2 -Wall -Wextra -shared -fPIC -o "$B/ompt_count.so" "$ROOT/bench/tools/ompt_count.c" ||
	die "ompt_count.so: build failed"
clang -O2 -g -fopenmp -o "$B/omp_tiny_regions" "$ROOT/bench/omp_tiny_regions.c" ||
	die "omp_tiny_regions: build failed (clang -fopenmp, LLVM libomp)"
"$UPROF" --version >/dev/null 2>&1 || die "$UPROF is missing or broken (run make)"
PROG=$B/omp_tiny_regions
TOOL=$(cd "$(dirname "$UPROF")/../lib" && pwd)/libAMDProfileController.so
[[ -f $TOOL ]] || die "$TOOL is missing"

# profile VARIANT KIND THREADS N: the callgrind profile's path
profile() {
	local v=$1 k=$2 t=$3 n=$4 out=$TMP/$1.$2.$3.$4
	local vg=(valgrind -q --tool=callgrind --cache-sim=yes ${D1:+"--D1=$D1"}
		"--callgrind-out-file=$out.cg" "$PROG" "$k" "$t" "$n")
	local -a env=(OMP_WAIT_POLICY=passive KMP_BLOCKTIME=0)
	case $v in
	bare) env "${env[@]}" "${vg[@]}" ;;
	count) env "${env[@]}" OMP_TOOL_LIBRARIES="$B/ompt_count.so" "${vg[@]}" ;;
	basic) env "${env[@]}" "$UPROF" collect --trace openmp -o "$out.s" "${vg[@]}" ;;
	full) env "${env[@]}" "$UPROF" collect --trace openmp --openmp-scope full -o "$out.s" "${vg[@]}" ;;
	esac >"$out.log" 2>&1 || { cat "$out.log" >&2; die "$v $k $t $n failed"; }
	grep -q "^regions=$n threads=$t " "$out.log" || { cat "$out.log" >&2; die "$v $k $t $n: no result line"; }
	python3 "$ROOT/bench/tools/cg_calls.py" "$out.cg" \
		"$([[ $v == count ]] && echo ompt_count.so || echo libAMDProfileController.so)" >"$out.calls"
	echo "$out.calls"
}

# field FILE WHAT: total Ir / libomp's own Ir / callback calls / their inclusive Ir
field() {
	case $2 in
	total) awk '$1 == "total" { print $2 }' "$1" ;;
	libomp) awk '$1 == "self" && $2 ~ /libomp/ { s += $3 } END { print s + 0 }' "$1" ;;
	# callbacks: the runtime's calls into a tool's on_* (ours) or c_* (ompt_count)
	calls) awk '$1 == "entry" && $2 ~ /^(on|c)_/ { s += $3 } END { print s + 0 }' "$1" ;;
	cbir) awk '$1 == "entry" && $2 ~ /^(on|c)_/ { s += $4 } END { print s + 0 }' "$1" ;;
	# the tool's clock reads: its calls to clock_gettime (none where the page's stamps are
	# the TSC, read inline: not on a kvm-clock guest)
	clock) awk '$1 == "out" && $2 ~ /^clock_gettime/ { s += $3 } END { print s + 0 }' "$1" ;;
	# cache (--cache-sim=yes): the process's data misses (D1, LL), and the same, with the
	# data references, of the calls into the tool
	d1 | ll) events "$1" '$1 == "total"' "$2" ;;
	cbdref | cbd1 | cbll) events "$1" '$1 == "entry" && $2 ~ /^(on|c)_/' "${2#cb}" ;;
	esac
}

# events FILE AWK-CONDITION WHAT: the sum of the EVENT=count pairs of WHAT (dref: Dr Dw;
# d1: D1mr D1mw; ll: DLmr DLmw) over the lines of cg_calls.py's output that match
events() {
	local want
	case $3 in
	dref) want="Dr Dw" ;;
	d1) want="D1mr D1mw" ;;
	ll) want="DLmr DLmw" ;;
	esac
	awk -v want="$want" "$2"' {
		for (i = 3; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[2] != "" && index(" " want " ", " " kv[1] " ")) s += kv[2]
		} } END { print s + 0 }' "$1"
}

# per_region V K T WHAT: (N2 run - N1 run) / (N2 - N1)
per_region() {
	local a b
	a=$(field "${P[$1.$2.$3.$N1]}" "$4")
	b=$(field "${P[$1.$2.$3.$N2]}" "$4")
	awk -v a="$a" -v b="$b" -v n=$((N2 - N1)) 'BEGIN { printf "%.1f", (b - a) / n }'
}
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? a / b : 0 }'; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }

declare -A P=()
echo "omp_tool_instr: $(date -u '+%Y-%m-%d %H:%M UTC'), ${D1:+D1=$D1, }$UPROF (tree $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?')), N1=$N1 N2=$N2, $(valgrind --version), $(clang --version | head -n1)"
echo
echo "| program | threads | bare: Ir/region | of which libomp | count: runtime's OMPT Ir/region | callbacks/region | basic: tool Ir/callback | basic: tool Ir/region | full: tool Ir/callback | full: tool Ir/region | clock reads/region |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for kind in empty loop; do
	for t in 2 4; do
		[[ -z ${ONLY:-} || " $ONLY " == *" $kind:$t "* ]] || continue
		for v in bare count basic full; do
			for n in "$N1" "$N2"; do
				P[$v.$kind.$t.$n]=$(profile "$v" "$kind" "$t" "$n") || exit 1
			done
		done
		bare=$(per_region bare "$kind" "$t" total)
		omp=$(per_region bare "$kind" "$t" libomp)
		# the runtime's work for a tool: libomp's own instructions more than bare's
		rt=$(sub "$(per_region count "$kind" "$t" libomp)" "$omp")
		cb=$(per_region basic "$kind" "$t" calls)
		cbf=$(per_region full "$kind" "$t" calls)
		[[ $cb == "$cbf" ]] || die "$kind $t: basic took $cb callbacks a region, full $cbf"
		ib=$(div "$(per_region basic "$kind" "$t" cbir)" "$cb")
		if_=$(div "$(per_region full "$kind" "$t" cbir)" "$cb")
		ab=$(per_region basic "$kind" "$t" cbir)
		af=$(per_region full "$kind" "$t" cbir)
		clk=$(per_region basic "$kind" "$t" clock)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
			"$kind" "$t" "$bare" "$omp" "$rt" "$cb" "$ib" "$ab" "$if_" "$af" "$clk"
		# the cache table's row, printed after this table
		d1b=$(per_region bare "$kind" "$t" d1)
		llb=$(per_region bare "$kind" "$t" ll)
		row="| $kind | $t | $d1b | $llb"
		for v in basic full; do
			row+=" | $(div "$(per_region "$v" "$kind" "$t" cbdref)" "$cb")"
			row+=" | $(div "$(per_region "$v" "$kind" "$t" cbd1)" "$cb")"
			row+=" | $(div "$(per_region "$v" "$kind" "$t" cbll)" "$cb")"
			row+=" | $(sub "$(per_region "$v" "$kind" "$t" d1)" "$d1b")"
		done
		echo "$row |" >>"$TMP/cache"
		# per callback, for the notes (basic, then full): Ir per call of each
		for v in basic full; do
			join <(awk '$1 == "entry" && $2 ~ /^on_/ { print $2, $3, $4 }' "${P[$v.$kind.$t.$N1]}" | sort) \
				<(awk '$1 == "entry" && $2 ~ /^on_/ { print $2, $3, $4 }' "${P[$v.$kind.$t.$N2]}" | sort) |
				awk -v v="$v" -v k="$kind" -v t="$t" '$4 > $2 {
					line = line sprintf(" %s %.1f", substr($1, 4), ($5 - $3) / ($4 - $2)) }
					END { print "- " v " " k "/" t ", Ir per call:" line }' >>"$TMP/notes"
		done
	done
done
echo
echo "Data cache (callgrind --cache-sim=yes: one simulated cache for all threads; per callback: the tool's calls, inclusive; per region: the whole process):"
echo
echo "| program | threads | bare: D1 misses/region | bare: LL misses/region | basic: tool data refs/callback | basic: tool D1 misses/callback | basic: tool LL misses/callback | basic: D1 misses/region added | full: tool data refs/callback | full: tool D1 misses/callback | full: tool LL misses/callback | full: D1 misses/region added |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$TMP/cache"
echo
cat "$TMP/notes"
