#!/usr/bin/env bash
# uprof timechart: on a fake machine with cpufreq, RAPL powercap and hwmon
# (tests/fixtures/timechart-sysfs) the exact values it reads, in uProf's timechart.csv
# layout; on this machine the columns it can fill and the line naming those it cannot;
# a program run under it (its stdout its own, -w, --affinity); bad values.
. "$(dirname "$0")/lib/common.sh"

FIX=$PWD/tests/fixtures/timechart-sysfs
fake() { UPROF_SYSFS_ROOT=$FIX UPROF_DEV_ROOT=$SCRATCH/nodev "$UPROF" timechart "$@"; }
# cells N of every data row (trimmed), unique, comma-joined
cells() { tail -n +2 "$1" | cut -d, -f"$2" | tr -d ' ' | sort -u | paste -sd, -; }

fake -t 50 -d 0.3 -o "$SCRATCH/fake" 2>"$SCRATCH/err"; rc=$?
C=$SCRATCH/fake/timechart.csv
check "fake machine: exit 0" [ $rc = 0 ]
check "header: uProf's columns for 4 threads, 2 sockets" [ "$(head -1 "$C")" = "RecordId,Timestamp,thread0-core-effective-frequency,thread1-core-effective-frequency,thread2-core-effective-frequency,thread3-core-effective-frequency,thread0-p-state,thread1-p-state,thread2-p-state,thread3-p-state,socket0-package-power,socket1-package-power,core0-power,core1-power,socket0-temperature,socket1-temperature" ]
rows=$(($(wc -l <"$C") - 1))
check "rows: as many as stderr says ($rows), numbered 1..N" bash -c "grep -q '^uprof timechart: $rows records every 50 ms in ' '$SCRATCH/err' && [ \"\$(cut -d, -f1 '$C' | tail -n +2 | paste -sd, -)\" = \"\$(seq -s, 1 $rows)\" ] && [ $rows -ge 1 ]"
check "timestamps are h:m:s:ms" bash -c "! tail -n +2 '$C' | cut -d, -f2 | grep -qvE '^[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,3}$'"
check "frequency from scaling_cur_freq: 3700, 2800, 2200, 1498 MHz" [ "$(cells "$C" 3)/$(cells "$C" 4)/$(cells "$C" 5)/$(cells "$C" 6)" = 3700.00/2800.00/2200.00/1498.00 ]
check "P-states from scaling_available_frequencies: 0, 1, 2, 3 (1498 nearest 1500)" [ "$(cells "$C" 7)/$(cells "$C" 8)/$(cells "$C" 9)/$(cells "$C" 10)" = 0/1/2/3 ]
check "package power of unchanged energy_uj: 0.00 W" [ "$(cells "$C" 11)/$(cells "$C" 12)" = 0.00/0.00 ]
check "core power (amd_energy Ecore000, Ecore001) of unchanged counters: 0.00 W" [ "$(cells "$C" 13)/$(cells "$C" 14)" = 0.00/0.00 ]
check "temperature of the two k10temp sensors (acpitz is not one): 45.25, 51.50" [ "$(cells "$C" 15)/$(cells "$C" 16)" = 45.25/51.50 ]
check "values after ', ' as uProf writes them" grep -q '^1,[0-9:]*, 3700.00, 2800.00,' "$C"
check "stderr says the sources, and no 'cannot fill'" bash -c "grep -qx 'uprof timechart: effective frequency from cpufreq scaling_cur_freq' '$SCRATCH/err' && grep -qx 'uprof timechart: P-state from cpufreq scaling_available_frequencies' '$SCRATCH/err' && ! grep -q 'cannot fill' '$SCRATCH/err'"

# energy that moves (a loop adding 1 J per 10 ms to a copy's counter): power is the delta
# over the time between readings; only its signs here, as the writer's pace depends on
# the load (the exact arithmetic is tests/unit/test_timechart.c's)
cp -r "$FIX" "$SCRATCH/tree"
E=$SCRATCH/tree/class/powercap/intel-rapl:0/energy_uj
( e=123456789; while [ -e "$SCRATCH/tree" ]; do e=$((e + 1000000)); echo $e >"$E.tmp" && mv "$E.tmp" "$E"; sleep 0.01; done ) &
W=$!
UPROF_SYSFS_ROOT=$SCRATCH/tree UPROF_DEV_ROOT=$SCRATCH/nodev "$UPROF" timechart -e power -t 200 -d 1 -o "$SCRATCH/moving" 2>/dev/null
kill $W 2>/dev/null; wait $W 2>/dev/null
M=$SCRATCH/moving/timechart.csv
check "-e power: only the package and core columns" [ "$(head -1 "$M")" = "RecordId,Timestamp,socket0-package-power,socket1-package-power,core0-power,core1-power" ]
# a starved writer may add nothing in an interval, a short last interval may see a step:
# one row above 0, none below, none near the 65 kJ of a misread wrap
check_sh "moving energy: socket0 power above 0 in some row, never below or absurd; socket1 0.00" '[ "$(cells "$M" 4)" = 0.00 ] && tail -n +2 "$M" | cut -d, -f3 | awk "{ if (\$1 < 0 || \$1 > 10000) bad = 1; if (\$1 > 0) up = 1 } END { exit bad || !up }"'

fake -e core=1-2,frequency,p-state -f txt -t 50 -d 0.2 -o "$SCRATCH/txt" 2>/dev/null
T=$SCRATCH/txt/timechart.txt
check "-f txt -e core=1-2: fixed-width, threads 1 and 2 only" bash -c "head -1 '$T' | grep -qE '^RecordId +Timestamp +thread1-core-effective-frequency thread2-core-effective-frequency thread1-p-state thread2-p-state$' && sed -n 2p '$T' | grep -qE ' +2800.00 +2200.00 +1 +2$'"
L=$(fake --list)
check "--list: each event with its source here" bash -c "grep -qE '^power +RAPL powercap energy_uj \(2 package zones\), amd_energy energyN_input \(2 cores\)$' <<<'$L' && grep -qE '^temperature +hwmon temp1_input \(2 sensors\)$' <<<'$L' && grep -qE '^frequency +cpufreq scaling_cur_freq$' <<<'$L'"

# ---- this machine ----
"$UPROF" timechart -t 50 -d 0.2 -o "$SCRATCH/here" 2>"$SCRATCH/err"; rc=$?
H=$SCRATCH/here/timechart.csv
n=$(grep -c '^processor' /proc/cpuinfo)
check "this machine: exit 0, a frequency column per CPU ($n)" bash -c "[ $rc = 0 ] && [ \$(head -1 '$H' | tr , '\n' | grep -c 'core-effective-frequency') = $n ]"
check "this machine: every frequency cell a number above 0" bash -c "tail -n +2 '$H' | cut -d, -f3- | tr , '\n' | awk '{ if (\$1 + 0 <= 0) bad = 1 } END { exit bad }'"
check "this machine: stderr names the frequency source" grep -qE '^uprof timechart: effective frequency from (APERF/MPERF|cpufreq|/proc/cpuinfo)' "$SCRATCH/err"
if [ ! -d /sys/class/powercap ] || ! ls /sys/class/powercap | grep -q '^intel-rapl:[0-9]*$'; then
	check "no RAPL here: one line says power (and what else) cannot be filled" bash -c "[ \$(grep -c 'cannot fill here:' '$SCRATCH/err') = 1 ] && grep -q 'cannot fill here:.*package power (no RAPL package zone under /sys/class/powercap)' '$SCRATCH/err' && ! head -1 '$H' | grep -q package-power"
else
	check "RAPL here: package power columns" bash -c "head -1 '$H' | grep -q socket0-package-power"
fi
if ! grep -qx amd_energy /sys/class/hwmon/hwmon*/name 2>/dev/null; then
	check "no amd_energy here: the same line says core power cannot be filled, no core column" bash -c "grep -q 'cannot fill here:.*core power (no amd_energy hwmon with Ecore counters under /sys/class/hwmon)' '$SCRATCH/err' && ! head -1 '$H' | grep -q 'core[0-9]*-power'"
else
	check "amd_energy here: core power columns" bash -c "head -1 '$H' | grep -q core0-power"
fi

# ---- a program under it ----
out=$("$UPROF" timechart -t 20 -o "$SCRATCH/prog" -w /tmp --affinity 0 -- sh -c 'pwd; grep ^Cpus_allowed_list /proc/self/status' 2>"$SCRATCH/err"); rc=$?
check "program: its stdout is its own (-w /tmp, --affinity 0), exit 0" [ "$rc/$out" = "0/$(printf '/tmp\nCpus_allowed_list:\t0')" ]
check "program: the chart ends with it" grep -q '^uprof timechart: [0-9]* records\? every 20 ms in ' "$SCRATCH/err"

# ---- bad values: one line, exit 2 (1 for a program not found) ----
expect_fail 2 "-t 5 refused" "^uprof timechart: .*'5' is not an interval of 10 to 3600000 ms" "$UPROF" timechart -t 5 -d 1 -o "$SCRATCH/b"
expect_fail 2 "-f xml refused" "^uprof timechart: -f: 'xml' is not a format \(csv or txt\)$" "$UPROF" timechart -f xml -d 1 -o "$SCRATCH/b"
expect_fail 2 "-e bogus refused" "^uprof timechart: -e: 'bogus' is not a timechart event" "$UPROF" timechart -e power,bogus -d 1 -o "$SCRATCH/b"
expect_fail 2 "-e core=99 refused" "^uprof timechart: CPU 99 is not online \(online: " "$UPROF" timechart -e core=99 -d 1 -o "$SCRATCH/b"
for v in abc 0 -1 nan inf ""; do
	expect_fail 2 "-d '$v' refused" "^uprof timechart: -d: '$v' is not a duration in seconds \(such as 10 or 0.5\)$" "$UPROF" timechart -d "$v" -o "$SCRATCH/b"
done
expect_fail 2 "--affinity without a program refused" "^uprof timechart: --affinity and -w set up a program: give one" "$UPROF" timechart --affinity 0 -d 1 -o "$SCRATCH/b"
expect_fail 2 "--affinity x refused" "^uprof timechart: --affinity: 'x' is not a CPU list" "$UPROF" timechart --affinity x -o "$SCRATCH/b" /bin/true
expect_fail 2 "-w on a file refused" "^uprof timechart: -w: '/etc/passwd' is not a directory$" "$UPROF" timechart -w /etc/passwd -o "$SCRATCH/b" /bin/true
expect_fail 1 "a program not found: one line" "^uprof timechart: .*no-such-program" "$UPROF" timechart -o "$SCRATCH/b" no-such-program-xyz
check "nothing written for a refused run" [ ! -e "$SCRATCH/b" ]
exit 0
