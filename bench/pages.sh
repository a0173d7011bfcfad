#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/pages.sh [ROUNDS] -- what reading the control pages of many instrumented processes
# costs uprof collect: its own CPU time (user+sys of the uprof process, read from
# /proc/<pid>/stat by the target when its last child is reaped: the targets' time is not
# in it) while bench/pages_target forks N children, one every GAP_US, each making its page
# (pause, resume, a task), sleeping HOLD_MS and exiting. BASE (main built: bin/uprof and
# lib/libAMDProfileController.so; default /tmp/baseline-build) against NEW (default
# build/), each target linked against its own build's library, interleaved round by round
# (base/new, then new/base). Prints the medians and the ratio new/base. Nothing passes or
# fails.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=${BASE:-/tmp/baseline-build}
NEW=${NEW:-$ROOT/build}
N=${N:-1000}
GAP_US=${GAP_US:-2000}
HOLD_MS=${HOLD_MS:-300}
ROUNDS=${1:-3}
T=$(mktemp -d /tmp/uprof-bench-pages.XXXXXX)
trap 'rm -rf "$T"' EXIT
for v in base new; do
	d=$BASE
	[ "$v" = new ] && d=$NEW
	gcc -O2 -I"$ROOT/include" -o "$T/target_$v" "$ROOT/bench/pages_target.c" \
		-L"$d/lib" -Wl,-rpath,"$d/lib" -lAMDProfileController -lrt -pthread
done
# one run of variant $1: prints "cpu_ms wall_ms"
run() {
	local v=$1 d=$BASE t0 t1 ut st hz
	[ "$v" = new ] && d=$NEW
	rm -rf "$T/s_$v" "$T/cpu_$v"
	t0=$EPOCHREALTIME
	"$d/bin/uprof" collect -q -o "$T/s_$v" "$T/target_$v" "$N" "$GAP_US" "$HOLD_MS" \
		"$T/cpu_$v" >/dev/null 2>"$T/err_$v"
	t1=$EPOCHREALTIME
	read -r ut st hz <"$T/cpu_$v"
	echo "$(((ut + st) * 1000 / hz)) $(( (${t1/./} - ${t0/./}) / 1000 ))"
}
run base >/dev/null # warm-up, discarded
run new >/dev/null
: >"$T/base.txt"
: >"$T/new.txt"
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2 == 0)); then order="base new"; else order="new base"; fi
	for v in $order; do
		run "$v" >>"$T/$v.txt"
		echo "round $r $v: $(tail -1 "$T/$v.txt") (cpu ms, wall ms)" >&2
	done
done
python3 - "$T/base.txt" "$T/new.txt" "$N" "$GAP_US" "$HOLD_MS" <<'PY'
import statistics, sys
def load(p):
    rows = [tuple(map(int, l.split())) for l in open(p) if l.strip()]
    return [r[0] for r in rows], [r[1] for r in rows]
bc, bw = load(sys.argv[1])
nc, nw = load(sys.argv[2])
n, gap, hold = sys.argv[3:6]
print(f"{n} instrumented processes, one every {gap} us, each living {hold} ms; {len(bc)} rounds")
print("| | collect CPU ms (median, min) | wall ms (median) |")
print("|---|---|---|")
print(f"| base | {statistics.median(bc):.0f}, {min(bc)} | {statistics.median(bw):.0f} |")
print(f"| new | {statistics.median(nc):.0f}, {min(nc)} | {statistics.median(nw):.0f} |")
r = statistics.median(nc) / max(statistics.median(bc), 1)
print(f"| new/base | {r:.2f} ({min(nc) / max(min(bc), 1):.2f}) | {statistics.median(nw) / statistics.median(bw):.2f} |")
PY
