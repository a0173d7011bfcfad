#!/usr/bin/env bash
# bench/leafg.sh [quick] -- what the -g leaf copy costs (leafstack.data: pc, sp, bp and
# 512 bytes of user stack per sample, split out of samples.data as it is written),
# side by side with perf 6.x.
#
#   a. collect: whole-command wall time of tests/targets/leafg.c (gcc -O2
#      -fno-omit-frame-pointer, a frameless leaf) bare, under `uprof collect -g` (leaf copy),
#      `uprof collect --call-graph fp:0` (none) and `perf record -g`, cpu-clock every 1 ms
#      and every 0.1 ms; the bytes each writes
#   b. report: `uprof report` of one 0.1 ms session with its leafstack.data and without it
#      (the file removed from a copy), and `perf report --stdio` of the same samples.data
#
# Rounds are interleaved with a rotating order; median and min wall times and ratios are
# printed. Nothing passes or fails. Environment: UPROF, PERF, RUNS.
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
BDIR=$ROOT/build/bench
if [[ $MODE == quick ]]; then RUNS=${RUNS:-2} UNITS=150; else RUNS=${RUNS:-7} UNITS=400; fi

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }
command -v "$PERF" >/dev/null || die "perf not found (set PERF=)"
"$UPROF" --version >/dev/null 2>&1 || die "$UPROF is missing or broken (run make)"
mkdir -p "$BDIR"
gcc -O2 -g -fno-omit-frame-pointer -o "$BDIR/leafg" "$ROOT/tests/targets/leafg.c"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uprof-bench-leafg.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

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
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'; }
declare -A RES=()
rounds() { # NAME LABEL...: run_NAME_LABEL in a rotating order, one warm-up round
	local name=$1 r k l us n
	shift
	local labels=("$@")
	n=${#labels[@]}
	for ((r = -1; r < RUNS; r++)); do
		for ((k = 0; k < n; k++)); do
			l=${labels[$(((r + 1 + k) % n))]}
			rm -rf "$TMP/s" "$TMP/p.data"
			timeit us "run_${name}_$l"
			((r < 0)) || RES[$name.$l]+=" $us"
		done
	done
}
med() { medmin "${RES[$1]}" | cut -d' ' -f1; }
row() { # LABEL KEY [BASEKEY BASENAME]...
	local label=$1 key=$2 m
	shift 2
	read -r m min < <(medmin "${RES[$key]}")
	printf "  %-40s median %7.3f s  min %7.3f s" "$label" "$m" "$min"
	while (($# >= 2)); do
		printf "  %s x %s" "$(fdiv "$m" "$(med "$1")")" "$2"
		shift 2
	done
	echo
}

for ms in 1 0.1; do
	ns=$(awk -v m="$ms" 'BEGIN { printf "%d", m * 1e6 }')
	tag=${ms/./_}
	eval "run_a${tag}_bare() { \"$BDIR/leafg\" $UNITS; }"
	eval "run_a${tag}_leaf() { \"$UPROF\" collect -g --timer-interval $ms -o \"$TMP/s\" \"$BDIR/leafg\" $UNITS; }"
	eval "run_a${tag}_noleaf() { \"$UPROF\" collect --call-graph fp:0 --timer-interval $ms -o \"$TMP/s\" \"$BDIR/leafg\" $UNITS; }"
	eval "run_a${tag}_perf() { \"$PERF\" record --no-bpf-event -e cpu-clock -c $ns -g -o \"$TMP/p.data\" \"$BDIR/leafg\" $UNITS; }"
	log "a. collect at $ms ms: leafg $UNITS, $RUNS rounds of bare / uprof -g / uprof fp:0 / perf -g"
	rounds "a$tag" bare leaf noleaf perf
done

# bytes written and the stacks, one run each at 0.1 ms
"$UPROF" collect -g --timer-interval 0.1 -o "$TMP/b" "$BDIR/leafg" "$UNITS" >/dev/null 2>&1
B=$(ls -d "$TMP"/b/uprof-* | head -n1)
N=$(sed -n 's/^samples = //p' "$B/session.ini")
cp -r "$B" "$TMP/b-noside"
rm -f "$TMP/b-noside/leafstack.data"
"$PERF" record --no-bpf-event -e cpu-clock -c 100000 -g -o "$TMP/perf.data" "$BDIR/leafg" "$UNITS" >/dev/null 2>&1
run_b_side() { "$UPROF" report -i "$B"; }
run_b_noside() { "$UPROF" report -i "$TMP/b-noside"; }
run_b_perf() { "$PERF" report --stdio -i "$B/samples.data"; }
log "b. report: $N samples, $RUNS rounds"
rounds b side noside perf
"$UPROF" report -i "$B" --export folded >/dev/null 2>&1
share=$("$PYTHON" "$ROOT/tests/e2e/lib/stacks.py" share "$B/stacks.folded" "main;caller_a;leaf" leaf)

echo
echo "== -g leaf copy: cost ($("$PERF" --version), $(nproc) CPUs, $(uname -r))"
for ms in 1 0.1; do
	tag=${ms/./_}
	echo "a. collect, wall time of the whole command (leafg $UNITS, cpu-clock every $ms ms)"
	row "bare" "a$tag.bare"
	row "uprof collect -g (leaf copy)" "a$tag.leaf" "a$tag.noleaf" "fp:0" "a$tag.perf" "perf -g" "a$tag.bare" "bare"
	row "uprof collect --call-graph fp:0" "a$tag.noleaf" "a$tag.perf" "perf -g" "a$tag.bare" "bare"
	row "perf record -g" "a$tag.perf" "a$tag.bare" "bare"
done
echo "  bytes at 0.1 ms ($N samples): samples.data $(stat -c %s "$B/samples.data")," \
	"leafstack.data $(stat -c %s "$B/leafstack.data"), perf.data $(stat -c %s "$TMP/perf.data")"
echo "b. report of the 0.1 ms session"
row "uprof report (with leafstack.data)" b.side b.noside "without" b.perf "perf report"
row "uprof report (leafstack.data removed)" b.noside b.perf "perf report"
row "perf report --stdio" b.perf
echo "  stacks: ${share}% of leaf's samples under main;caller_a;leaf (2/3 expected)"
