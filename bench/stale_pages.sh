#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/stale_pages.sh [ROUNDS] -- the fixed cost of `uprof collect /bin/true` (wall time)
# with no page in /dev/shm against with 150 stale pages of dead processes of our uid made
# just before the run (issue 27: each was opened and mapped at every start, 0.022 s ->
# 0.083 s with 365 of them; now one readdir removes them). A stale page is a copy of a real
# one: an instrumented process (AMDUPROF_INSTRUMENT_ENABLE=1) SIGKILLed, its 2.1 MB page
# copied under 150 pids no process has. The variants run interleaved round by round (clean,
# stale; then stale, clean); BASE (another build, e.g. main's; default none) runs the
# stale variant too, for the cost before. Prints the medians and the ratio stale/clean.
# Nothing passes or fails.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEW=${NEW:-$ROOT/build}
BASE=${BASE:-}
ROUNDS=${1:-10}
K=${K:-150}
T=$(mktemp -d /tmp/uprof-bench-stale.XXXXXX)
pids=()
trap 'rm -rf "$T"; for p in "${pids[@]}"; do rm -f "/dev/shm/uprof.$p"; done' EXIT
# one real page, of a process killed before it could remove it
AMDUPROF_INSTRUMENT_ENABLE=1 "$NEW/targets/kill_target" - "$T/never" 60 >/dev/null 2>&1 &
v=$!
i=0
while [ $i -lt 500 ] && [ ! -s "/dev/shm/uprof.$v" ]; do sleep 0.01; i=$((i + 1)); done
cp "/dev/shm/uprof.$v" "$T/page"
kill -KILL "$v"
wait "$v" 2>/dev/null || true
rm -f "/dev/shm/uprof.$v"
for ((p = $(cat /proc/sys/kernel/pid_max) - 1; p > 1000 && ${#pids[@]} < K; p--)); do
	[ -e "/proc/$p" ] || [ -e "/dev/shm/uprof.$p" ] || pids+=("$p")
done
plant() { for p in "${pids[@]}"; do cp "$T/page" "/dev/shm/uprof.$p"; done; }
# one run: prints its wall time in ms
run() { # $1: build dir, $2: clean|stale
	local t0 t1
	[ "$2" = stale ] && plant
	rm -rf "$T/s"
	t0=$EPOCHREALTIME
	"$1/bin/uprof" collect -q -o "$T/s" /bin/true >/dev/null 2>&1
	t1=$EPOCHREALTIME
	for p in "${pids[@]}"; do rm -f "/dev/shm/uprof.$p"; done
	echo $(((${t1/./} - ${t0/./}) / 1000))
}
: >"$T/clean"
: >"$T/stale"
: >"$T/base"
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then
		run "$NEW" stale >>"$T/stale"
		run "$NEW" clean >>"$T/clean"
	else
		run "$NEW" clean >>"$T/clean"
		run "$NEW" stale >>"$T/stale"
	fi
	[ -z "$BASE" ] || run "$BASE" stale >>"$T/base"
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
c=$(median "$T/clean")
s=$(median "$T/stale")
echo "collect /bin/true, $ROUNDS rounds, median wall ms: clean $c, with $K stale pages $s, ratio $(awk -v a="$s" -v b="$c" 'BEGIN {printf "%.2f", a / b}')"
[ -z "$BASE" ] || echo "BASE ($BASE) with $K stale pages: $(median "$T/base") ms"
