#!/usr/bin/env bash
# uprof pcm -x <cpus>: the launched program runs on those CPUs only, from its first
# instruction (set at its gate): the program reads its own affinity, and the CPU of its
# last run from /proc/self/stat, and writes them. Bad lists are refused in one line.
. "$(dirname "$0")/lib/common.sh"

PROG='import os, sys
cpu = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[36]
open(sys.argv[1], "w").write("%s %s\n" % (",".join(map(str, sorted(os.sched_getaffinity(0)))), cpu))'
last=$(($(nproc) - 1))
for list in 0 "$last" "0-$last"; do
	"$UPROF" pcm -m swi -C -x "$list" -o "$SCRATCH/pcm.csv" -- "$PYTHON" -c "$PROG" "$SCRATCH/aff" 2>"$SCRATCH/err"
	rc=$?
	read -r aff cpu <"$SCRATCH/aff"
	want=$list
	[ "${list#*-}" = "$list" ] || want=$(seq -s, "${list%-*}" "${list#*-}")
	check_sh "-x $list: exit 0, the program's affinity is $want and it last ran on one of them (CPU $cpu)" \
		'[ $rc = 0 ] && [ "$aff" = "$want" ] && grep -qw "$cpu" <<<"${want//,/ }"'
done
expect_fail 2 "-x abc" "-x 'abc': a CPU list for the program" \
	"$UPROF" pcm -m swi -C -x abc -- /bin/true
expect_fail 2 "-x of a CPU not online" "-x: CPU 4000 is not online \\(online: 0" \
	"$UPROF" pcm -m swi -C -x 4000 -- /bin/true
expect_fail 2 "-x without a program" "-x sets the launched program's CPUs: give a program" \
	"$UPROF" pcm -m swi -C -x 0 -d 1
exit 0
