#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/stale_pages.sh [ROUNDS] -- the fixed cost of `uprof collect /bin/true` (wall time)
# with no page in /dev/shm against with 150 stale pages of dead processes of our uid made
# just before the run (issue 27: each was opened and mapped at every start, 0.022 s ->
# 0.083 s with 365 of them; now one readdir removes them). A stale page is a copy of a real
# one: an instrumented process (AMDUPROF_INSTRUMENT_ENABLE=1) SIGKILLed, its 2.1 MB page
# copied under 150 pids no process has. The variants run interleaved round by round (clean,
# stale; then stale, clean); BASE (another build, e.g. main's; default none) runs the
# stale variant too, for the cost before. Prints the medians and the ratios to clean: of
# the run that finds the stale pages (and removes them: freeing their memory is the
# kernel's work) and of the run after it.
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
# one collect: prints its wall time in ms
once() {
	local t0 t1
	rm -rf "$T/s"
	t0=$EPOCHREALTIME
	"$1/bin/uprof" collect -q -o "$T/s" /bin/true >/dev/null 2>&1
	t1=$EPOCHREALTIME
	echo $(((${t1/./} - ${t0/./}) / 1000))
}
# one run of a variant: clean; stale (the run that finds them), and the run after it
# (into $T/after: what every later collect pays, the cost issue 27 measured)
run() { # $1: build dir, $2: clean|stale, $3: new|base
	if [ "$2" = clean ]; then
		once "$1"
		return
	fi
	plant
	once "$1"
	once "$1" >>"$T/after_$3"
	for p in "${pids[@]}"; do rm -f "/dev/shm/uprof.$p"; done
}
: >"$T/clean"
: >"$T/stale"
: >"$T/base"
: >"$T/after_new"
: >"$T/after_base"
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then
		run "$NEW" stale new >>"$T/stale"
		run "$NEW" clean new >>"$T/clean"
	else
		run "$NEW" clean new >>"$T/clean"
		run "$NEW" stale new >>"$T/stale"
	fi
	[ -z "$BASE" ] || run "$BASE" stale base >>"$T/base"
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
c=$(median "$T/clean")
s=$(median "$T/stale")
a=$(median "$T/after_new")
echo "collect /bin/true, $ROUNDS rounds, median wall ms: clean $c; the run that finds $K stale pages $s (ratio $(ratio "$s" "$c")); the run after it $a (ratio $(ratio "$a" "$c"))"
[ -z "$BASE" ] || echo "BASE ($BASE): the run that finds them $(median "$T/base") ms, the run after it $(median "$T/after_base") ms (it leaves them: both pay)"
