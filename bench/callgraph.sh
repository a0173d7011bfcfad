#!/usr/bin/env bash
# bench/callgraph.sh [quick] -- call stacks: uprof against perf 6.x, side by side.
#
#   a. collect overhead, dwarf mode: whole-command wall time of the same program
#      (tests/targets/callgraph.c built without frame pointers) bare, under
#      `uprof collect --call-graph dwarf` and under `perf record --call-graph dwarf`,
#      both sampling cpu-clock every 1 ms with 8192-byte stack copies; and the same
#      with frame pointers (-g / perf -g) on the frame-pointer build
#   b. report time on ONE samples.data with >= 100k dwarf samples (collected by uprof at
#      0.1 ms): `uprof report` against `perf report --stdio` (which unwinds the same
#      stack copies with libunwind), and the stacks both find
#
# Rounds are interleaved with a rotating order; median and min wall times and the
# uprof/perf ratio are printed. Nothing passes or fails: goals are printed next to the
# numbers ("met"/"MISSED"). Environment: UPROF, PERF, RUNS_A, RUNS_B, STACK (bytes).
set -euo pipefail
# the system's python, not a version manager's shim on PATH (tests/e2e/lib/common.sh)
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 python3 | head -1)}
export LC_ALL=C

MODE=${1:-full}
case $MODE in
full | quick) ;;
*) echo "usage: $0 [quick]" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UPROF=${UPROF:-$ROOT/build/bin/uprof}
PERF=${PERF:-perf}
STACK=${STACK:-8192}
BDIR=$ROOT/build/bench
if [[ $MODE == quick ]]; then
	RUNS_A=${RUNS_A:-2} RUNS_B=${RUNS_B:-2} UNITS_A=1000 MIN_B=0 UNITS_B=3000
else
	RUNS_A=${RUNS_A:-7} RUNS_B=${RUNS_B:-5} UNITS_A=3000 MIN_B=100000 UNITS_B=30000
fi

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }
command -v "$PERF" >/dev/null || die "perf not found (set PERF=)"
"$UPROF" --version >/dev/null 2>&1 || die "$UPROF is missing or broken (run make)"
mkdir -p "$BDIR"
gcc -O2 -g -fomit-frame-pointer -o "$BDIR/callgraph_nofp" "$ROOT/tests/targets/callgraph.c"
gcc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$BDIR/callgraph_fp" \
	"$ROOT/tests/targets/callgraph.c"
TMP=$(mktemp -d /tmp/uprof-bench-cg.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
UPROF_RUN=$UPROF

timeit() { # VAR cmd...: wall time in microseconds
	local __var=$1 t0 t1 rc=0
	shift
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null 2>"$TMP/err" </dev/null || rc=$?
	t1=${EPOCHREALTIME/./}
	((rc == 0)) || { cat "$TMP/err" >&2; die "command failed (exit $rc): $*"; }
	printf -v "$__var" '%d' $((t1 - t0))
}
medmin() {
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 }
		END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f\n", m / 1e6, v[1] / 1e6 }'
}
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
goal() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? "met" : "MISSED" }'; }
declare -A RES=()
rounds() { # NAME RUNS LABEL...: prep_/run_ NAME_LABEL, rotating order, one warm-up
	local name=$1 runs=$2 r k l us n
	shift 2
	local labels=("$@")
	n=${#labels[@]}
	for ((r = -1; r < runs; r++)); do
		for ((k = 0; k < n; k++)); do
			l=${labels[$(((r + 1 + k) % n))]}
			"prep_${name}_$l"
			timeit us "run_${name}_$l"
			((r < 0)) || RES[$name.$l]+=" $us"
		done
	done
}
row() { # LABEL NAME.KEY [BASE NAME.KEY]
	read -r med min < <(medmin "${RES[$2]}")
	printf "  %-44s median %7.3f s  min %7.3f s" "$1" "$med" "$min"
	if [[ -n ${3:-} ]]; then
		read -r bmed _ < <(medmin "${RES[$3]}")
		printf "  (%s x %s)" "$(fdiv "$med" "$bmed")" "$4"
	fi
	echo
}

# ---- a. collect overhead
prep_a_bare() { :; }
run_a_bare() { "$BDIR/callgraph_nofp" "$UNITS_A"; }
prep_a_udwarf() { rm -rf "$TMP/a"; }
run_a_udwarf() { "$UPROF_RUN" collect --call-graph "dwarf:$STACK" -o "$TMP/a" "$BDIR/callgraph_nofp" "$UNITS_A"; }
prep_a_pdwarf() { rm -f "$TMP/a.data"; }
run_a_pdwarf() { "$PERF" record --no-bpf-event -e cpu-clock -c 1000000 --call-graph "dwarf,$STACK" -o "$TMP/a.data" "$BDIR/callgraph_nofp" "$UNITS_A"; }
prep_a_barefp() { :; }
run_a_barefp() { "$BDIR/callgraph_fp" "$UNITS_A"; }
prep_a_ufp() { rm -rf "$TMP/a"; }
run_a_ufp() { "$UPROF_RUN" collect -g -o "$TMP/a" "$BDIR/callgraph_fp" "$UNITS_A"; }
prep_a_pfp() { rm -f "$TMP/a.data"; }
run_a_pfp() { "$PERF" record --no-bpf-event -e cpu-clock -c 1000000 -g -o "$TMP/a.data" "$BDIR/callgraph_fp" "$UNITS_A"; }
log "a. collect: callgraph $UNITS_A, $RUNS_A rounds each of bare/uprof/perf, dwarf and fp"
rounds a "$RUNS_A" bare udwarf pdwarf barefp ufp pfp

# ---- b. report time on one file of >= 100k dwarf samples
collect_b() {
	rm -rf "$TMP/b"
	"$UPROF_RUN" collect --call-graph "dwarf:$STACK" --timer-interval 0.1 -m 1024 -o "$TMP/b" \
		"$BDIR/callgraph_nofp" "$UNITS_B" >/dev/null 2>"$TMP/err" || { cat "$TMP/err" >&2; die "collect (b) failed"; }
	B_SESSION=$(ls -d "$TMP"/b/uprof-* | head -n1)
	B_SAMPLES=$(sed -n 's/^samples = //p' "$B_SESSION/session.ini")
}
log "b. collecting: --call-graph dwarf:$STACK --timer-interval 0.1, callgraph $UNITS_B"
collect_b
if ((B_SAMPLES < MIN_B)); then
	UNITS_B=$(awk -v u="$UNITS_B" -v s="$B_SAMPLES" -v m="$MIN_B" 'BEGIN { printf "%d", u * m * 1.1 / (s > 0 ? s : 1) + 1 }')
	log "b. only $B_SAMPLES samples; recollecting with callgraph $UNITS_B"
	collect_b
fi
prep_b_uprof() { :; }
run_b_uprof() { "$UPROF_RUN" report -i "$B_SESSION"; }
prep_b_uprofx() { :; }
run_b_uprofx() { "$UPROF_RUN" report -i "$B_SESSION" --detail --export all; }
prep_b_perf() { :; }
run_b_perf() { "$PERF" report --stdio -i "$B_SESSION/samples.data"; }
log "b. report: $B_SAMPLES samples ($(du -h "$B_SESSION/samples.data" | cut -f1)), $RUNS_B rounds"
rounds b "$RUNS_B" uprof uprofx perf
# what both unwound: share of samples with the full chain
"$UPROF_RUN" report -i "$B_SESSION" --export folded >/dev/null 2>&1
U_CHAIN=$("$PYTHON" "$ROOT/tests/e2e/lib/stacks.py" share "$B_SESSION/stacks.folded" "main;chain_a;chain_b;chain_leaf" chain_leaf)
"$PERF" script -i "$B_SESSION/samples.data" >"$TMP/perf.script" 2>/dev/null
P_DIFF=$("$PYTHON" "$ROOT/tests/e2e/lib/stacks.py" perf-agree "$B_SESSION/stacks.folded" "$TMP/perf.script" \
	main,chain_a,chain_b,chain_leaf,recurse,recurse_leaf,outer_with_inline)

# ---- results
read -r a_bare _ < <(medmin "${RES[a.bare]}")
read -r a_u _ < <(medmin "${RES[a.udwarf]}")
read -r a_p _ < <(medmin "${RES[a.pdwarf]}")
read -r b_u _ < <(medmin "${RES[b.uprof]}")
read -r b_p _ < <(medmin "${RES[b.perf]}")
echo
echo "== call stacks: uprof vs perf ($("$PERF" --version), $(nproc) CPUs, $(uname -r))"
echo "a. collect, wall time of the whole command (callgraph $UNITS_A, 1 ms, ${STACK}-byte stacks)"
row "bare (no frame pointers)" a.bare
row "uprof collect --call-graph dwarf" a.udwarf a.pdwarf "perf"
row "perf record --call-graph dwarf" a.pdwarf a.bare "bare"
row "bare (frame-pointer build)" a.barefp
row "uprof collect -g" a.ufp a.pfp "perf"
row "perf record -g" a.pfp a.barefp "bare"
echo "  dwarf overhead over bare: uprof $(fdiv "$a_u" "$a_bare")x, perf $(fdiv "$a_p" "$a_bare")x;" \
	"uprof/perf $(fdiv "$a_u" "$a_p") (goal <= 1: $(goal "$a_u" "$a_p"))"
echo "b. report, one samples.data of $B_SAMPLES dwarf samples ($(du -h "$B_SESSION/samples.data" | cut -f1))"
row "uprof report" b.uprof b.perf "perf"
row "uprof report --detail --export all" b.uprofx b.perf "perf"
row "perf report --stdio" b.perf
echo "  uprof/perf $(fdiv "$b_u" "$b_p") (goal <= 0.5: $(goal "$(fdiv "$b_u" "$b_p")" 0.5))"
echo "  stacks: ${U_CHAIN}% of chain_leaf's samples under main;chain_a;chain_b;chain_leaf;" \
	"uprof and perf disagree on ${P_DIFF}% of the samples"
