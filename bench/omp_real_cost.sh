#!/usr/bin/env bash
# bench/omp_real_cost.sh [ROUNDS] [REGIONS]: the OMPT tool's cost in a real program (issue
# 28, must show 6; goal <= 50 ns of CPU per callback). bench/omp_tiny_regions.c runs
# REGIONS (default 20000) tiny parallel regions, empty or with a static for and an explicit
# barrier in each, on 2 and 4 threads, with active and passive waiting. For each of those
# 8 programs, ROUNDS (default 5) interleaved rounds (after one warm-up round, discarded) of
# four variants in an order that rotates every round:
#   bare     the program alone
#   collect  uprof collect (sampling, no tracing)
#   basic    uprof collect --trace openmp
#   full     uprof collect --trace openmp --openmp-scope full
# each timed as the CPU time (user + sys) of its whole process tree (bench/tools/cpu_of.c).
# The callbacks the tool took come from one untimed run of the same program under
# bench/tools/ompt_count.c, a tool that registers the callbacks uprof's tool registers
# and counts their calls. The cost of tracing is (traced - collect) CPU time, per region
# and per callback, median over the rounds, with the min and max of the per-round
# differences (each round's traced run against the same round's collect run).
# The target's own CPU time (omp_tiny_regions prints it) splits the traced cost into the
# target's part (the tool's callbacks and ring writes) and collect's (draining the records).
# ONLY="empty:2:passive loop:4:active" runs those programs alone.
# Needs clang with LLVM libomp, and a built tree (make). Prints a Markdown table.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UPROF=${UPROF:-$ROOT/build/bin/uprof}
ROUNDS=${1:-5}
N=${2:-20000}
B=$ROOT/build/bench
TMP=$(mktemp -d /tmp/uprof-omp-real.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
die() { echo "omp_real_cost: $*" >&2; exit 1; }

mkdir -p "$B"
gcc -O2 -Wall -Wextra -o "$B/cpu_of" "$ROOT/bench/tools/cpu_of.c" || die "cpu_of: build failed"
gcc -O2 -Wall -Wextra -shared -fPIC -o "$B/ompt_count.so" "$ROOT/bench/tools/ompt_count.c" ||
	die "ompt_count.so: build failed"
clang -O2 -g -fopenmp -o "$B/omp_tiny_regions" "$ROOT/bench/omp_tiny_regions.c" ||
	die "omp_tiny_regions: build failed (clang -fopenmp, LLVM libomp)"
"$UPROF" --version >/dev/null 2>&1 || die "$UPROF is missing or broken (run make)"
PROG=$B/omp_tiny_regions

# waiting: active spins (libomp: KMP_BLOCKTIME=infinite), passive sleeps at once (0)
wait_env() {
	case $1 in
	active) echo "OMP_WAIT_POLICY=active KMP_BLOCKTIME=infinite" ;;
	passive) echo "OMP_WAIT_POLICY=passive KMP_BLOCKTIME=0" ;;
	esac
}

# run_variant VARIANT KIND THREADS WAIT: prints "tree_cpu_ns wall_ns target_cpu_ns"
run_variant() {
	local v=$1 k=$2 t=$3 w=$4 out=$TMP/s cmd=() line rc self
	rm -rf "$out"
	case $v in
	bare) cmd=("$PROG" "$k" "$t" "$N") ;;
	collect) cmd=("$UPROF" collect -o "$out" "$PROG" "$k" "$t" "$N") ;;
	basic) cmd=("$UPROF" collect --trace openmp -o "$out" "$PROG" "$k" "$t" "$N") ;;
	full) cmd=("$UPROF" collect --trace openmp --openmp-scope full -o "$out" "$PROG" "$k" "$t" "$N") ;;
	esac
	local -a wenv
	read -ra wenv <<<"$(wait_env "$w")"
	line=$(env "${wenv[@]}" "$B/cpu_of" "${cmd[@]}" 2>"$TMP/err") || die "cpu_of failed"
	rc=${line##* }
	[[ $rc == 0 ]] || { cat "$TMP/err" >&2; die "$v $k $t $w: exit $rc"; }
	self=$(sed -n 's/^omp_tiny_regions cpu_ns=//p' "$TMP/err")
	[[ -n $self ]] || die "$v $k $t $w: the program did not say its CPU time"
	# every traced run is checked for losses (untimed): the report says "Records Lost"
	# when the ring dropped a record or a table overflowed
	if [[ $v == basic || $v == full ]]; then
		"$UPROF" report -i "$(find "$out" -maxdepth 1 -name 'uprof-*' | head -n1)" >/dev/null 2>"$TMP/err" ||
			{ cat "$TMP/err" >&2; die "$v $k $t $w: report failed"; }
		grep -h '^Records Lost' "$out"/uprof-*/report.csv | sed "s/^/$v $k $t $w: /" >>"$TMP/losses" || true
	fi
	echo "${line% *} $self"
}

# stats "v v v": median min max
stats() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1 }
	END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	      printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'; }

VARIANTS=(bare collect basic full)
echo "omp_real_cost: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $N regions, $ROUNDS rounds (+1 warm-up), loadavg $(cut -d' ' -f1-3 /proc/loadavg), $(clang --version | head -n1)"
echo
echo "| program | threads | wait | callbacks/region | bare CPU ms | collect CPU ms | basic: ns/region | basic: ns/callback (min-max) | of which target | full: ns/region | full: ns/callback (min-max) | of which target |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for kind in empty loop; do
	for t in 2 4; do
		for w in passive active; do
			[[ -z ${ONLY:-} || " $ONLY " == *" $kind:$t:$w "* ]] || continue
			read -ra wenv <<<"$(wait_env "$w")"
			cb=$(env "${wenv[@]}" OMP_TOOL_LIBRARIES="$B/ompt_count.so" "$PROG" "$kind" "$t" "$N" 2>&1 >/dev/null |
				sed -n 's/^ompt_count callbacks=\([0-9]*\).*/\1/p')
			[[ -n $cb ]] || die "ompt_count gave no count ($kind $t $w)"
			declare -A CPU=() SELF=()
			for ((r = -1; r < ROUNDS; r++)); do
				for ((i = 0; i < 4; i++)); do
					v=${VARIANTS[$(((r + 1 + i) % 4))]}
					res=$(run_variant "$v" "$kind" "$t" "$w") || exit 1
					read -r cpu _ self <<<"$res"
					((r < 0)) || CPU[$r.$v]=$cpu SELF[$r.$v]=$self
				done
			done
			bare="" coll="" pr_b="" pc_b="" pr_f="" pc_f="" ts_b="" ts_f=""
			for ((r = 0; r < ROUNDS; r++)); do
				bare+=" ${CPU[$r.bare]}" coll+=" ${CPU[$r.collect]}"
				pr_b+=" $(((CPU[$r.basic] - CPU[$r.collect]) / N))"
				pr_f+=" $(((CPU[$r.full] - CPU[$r.collect]) / N))"
				pc_b+=" $(awk -v d=$((CPU[$r.basic] - CPU[$r.collect])) -v c="$cb" 'BEGIN { printf "%.1f", d / c }')"
				pc_f+=" $(awk -v d=$((CPU[$r.full] - CPU[$r.collect])) -v c="$cb" 'BEGIN { printf "%.1f", d / c }')"
				ts_b+=" $(awk -v d=$((SELF[$r.basic] - SELF[$r.collect])) -v c="$cb" 'BEGIN { printf "%.1f", d / c }')"
				ts_f+=" $(awk -v d=$((SELF[$r.full] - SELF[$r.collect])) -v c="$cb" 'BEGIN { printf "%.1f", d / c }')"
			done
			read -r bm _ _ <<<"$(stats "$bare")"
			read -r cm _ _ <<<"$(stats "$coll")"
			read -r rb _ _ <<<"$(stats "$pr_b")"
			read -r rf _ _ <<<"$(stats "$pr_f")"
			read -r cbm cbl cbh <<<"$(stats "$pc_b")"
			read -r cfm cfl cfh <<<"$(stats "$pc_f")"
			read -r tbm _ _ <<<"$(stats "$ts_b")"
			read -r tfm _ _ <<<"$(stats "$ts_f")"
			printf '| %s | %s | %s | %s | %.0f | %.0f | %.0f | %s (%s to %s) | %s | %.0f | %s (%s to %s) | %s |\n' \
				"$kind" "$t" "$w" "$(awk -v c="$cb" -v n="$N" 'BEGIN { printf "%.2f", c / n }')" \
				"$(awk -v x="$bm" 'BEGIN { print x / 1e6 }')" "$(awk -v x="$cm" 'BEGIN { print x / 1e6 }')" \
				"$rb" "$cbm" "$cbl" "$cbh" "$tbm" "$rf" "$cfm" "$cfl" "$cfh" "$tfm"
			unset CPU SELF
		done
	done
done
echo
if [[ -s $TMP/losses ]]; then echo "Losses:"; cat "$TMP/losses"; else echo "No traced run lost a record (no \`Records Lost\` line in any report.csv)."; fi
