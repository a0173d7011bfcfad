#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/switch_cost.sh UPROF [SECONDS]: what a context switch costs CPU_TIME's sampling
# (issue 29: Open MPI ranks sampled at 61-88 % of the asked rate, MPICH's at 97-99 %).
# Two processes share one CPU (taskset), each spinning SECONDS (default 0.5) of its own CPU
# time and yielding the CPU every EVERY iterations (tests/targets/switch_yield.c; 0: never, 20000,
# 1000), profiled two ways: both in one profile (one collect, the second process forked by
# the first: the kernel swaps their equivalent perf contexts at a switch and the timer runs
# on), and each in a profile of its own (two collects: at each switch the timer of the one
# going out is stopped and the other's started). For each profile: its samples against its
# target's CPU time (session.ini), its context switches (the targets' own rusage) and the
# CPU time unsampled per switch. Exits non-zero only when a command fails.
set -u
(($# == 1 || $# == 2)) || { echo "usage: $0 UPROF [SECONDS]" >&2; exit 2; }
U=$1 S=${2:-0.5}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/switch_cost.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export PERF_BUILDID_DIR=$T/.debug
gcc -O2 -o "$T/switch_yield" "$HERE/../tests/targets/switch_yield.c" || exit 1
CPU=$(($(nproc) - 1))

# line WHAT OUT ERR: one profile's numbers
line() {
	local s cpu n sw
	s=$(ls -d "$2"/uprof-* | head -n1)
	cpu=$(sed -n 's/^cpu_ns = //p' "$s/session.ini")
	n=$(sed -n 's/^samples = //p' "$s/session.ini")
	sw=$(awk '/^switches / { v += $2; i += $3 } END { print v + 0, i + 0 }' "$3")
	awk -v w="$1" -v cpu="$cpu" -v n="$n" -v sw="$sw" -v ms="$ms" 'BEGIN {
		split(sw, a, " "); t = a[1] + a[2]; lost = cpu / 1e6 - n * ms
		printf "%-36s %5d samples of %7.1f ms CPU: %5.1f %%  switches %6d (v %d, i %d)  unsampled %6.1f ms: %s\n",
			w, n, cpu / 1e6, 100 * n * ms / (cpu / 1e6), t, a[1], a[2], lost,
			t ? sprintf("%.1f us a switch", lost * 1000 / t) : "-" }'
}
ms=1 # the default CPU_TIME interval
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); both processes on CPU $CPU"
for every in 0 20000 1000; do
	rm -rf "$T/one" "$T/a" "$T/b"
	taskset -c "$CPU" "$U" collect -o "$T/one" "$T/switch_yield" "$S" "$every" 2 \
		>/dev/null 2>"$T/one.err" || { cat "$T/one.err" >&2; exit 1; }
	line "one profile, yield every $every" "$T/one" "$T/one.err"
	taskset -c "$CPU" "$U" collect -o "$T/a" "$T/switch_yield" "$S" "$every" >/dev/null 2>"$T/a.err" &
	taskset -c "$CPU" "$U" collect -o "$T/b" "$T/switch_yield" "$S" "$every" >/dev/null 2>"$T/b.err" ||
		{ cat "$T/b.err" >&2; exit 1; }
	wait $! || { cat "$T/a.err" >&2; exit 1; }
	line "two profiles (a), yield every $every" "$T/a" "$T/a.err"
	line "two profiles (b), yield every $every" "$T/b" "$T/b.err"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
