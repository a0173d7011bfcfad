#!/usr/bin/env bash
# uprof pcm -i FILE: a user-defined group file (the configs' own format) counted instead of
# -m's groups. On this machine, software events: the file's formulas over the counts it
# measured (a metric defined as twice another is exactly twice it, in the CSV's decimals),
# the group's title and name from the file. On the fake Zen 4 machine: a raw core event's
# perf_event_attr (--dry-run). Bad files -- truncated, corrupted, binary, XML, a formula
# that does not parse, no metric, missing -- and -i with -m: one line each, exit 2.
. "$(dirname "$0")/lib/common.sh"

FIX=$PWD/tests/fixtures
cat >"$SCRATCH/faults.ini" <<'INI'
; page faults and context switches of the program, and formulas over them
[config]
title = USER METRICS
[event.0]
name = FAULTS
spec = page-faults
[event.1]
name = CLOCK
spec = task-clock
[metric.0]
name = Page Faults
formula = FAULTS
[metric.1]
name = Twice the Faults
formula = FAULTS * 2
[metric.2]
name = CPU ms
formula = CLOCK / 1000000
INI
# the program touches 4096 pages of its own (no huge pages: one fault each): at least as
# many faults
"$UPROF" pcm -i "$SCRATCH/faults.ini" -C -o "$SCRATCH/c.csv" -- "$PYTHON" -c 'import mmap; m = mmap.mmap(-1, 4096 * 4096); m.madvise(mmap.MADV_NOHUGEPAGE); m[::4096] = b"x" * 4096' 2>"$SCRATCH/err"
rc=$?
C=$SCRATCH/c.csv
f=$(grep '^Page Faults,' "$C" | cut -d, -f2)
t=$(grep '^Twice the Faults,' "$C" | cut -d, -f2)
check "exit 0, the file's three metrics in the cumulative table" [ $rc = 0 -a "$(grep -cE '^(Page Faults|Twice the Faults|CPU ms),' "$C")" = 3 ]
check "Page Faults ($f): at least the 4096 pages the program touched" [ "${f:-0}" -ge 4096 ]
check "Twice the Faults ($t) is exactly 2 x $f" [ "$t" = "$((f * 2)).00" ]
"$UPROF" pcm -i "$SCRATCH/faults.ini" -I 50 -o "$SCRATCH/t.csv" -- sleep 0.2 >/dev/null 2>&1
check "timeseries: the file's title and metric names in the header rows" bash -c "grep -q '^,USER METRICS' '$SCRATCH/t.csv' && grep -q ',Page Faults,Twice the Faults,CPU ms,' '$SCRATCH/t.csv'"

# a raw core event on the fake Zen 4 machine: cpu format event:0-7,32-35 umask:8-15
printf '[event.0]\nname = RET\nspec = cpu/event=0xc0/\n[event.1]\nname = CYC\nspec = cpu/event=0x76/\n[metric.0]\nname = IPC\nformula = RET / CYC\n' >"$SCRATCH/ipc2.ini"
D=$(UPROF_SYSFS_ROOT=$FIX/sysfs-zen4 UPROF_PROCFS_ROOT=$FIX/procfs-zen4 "$UPROF" pcm -i "$SCRATCH/ipc2.ini" -c core=0 --dry-run 2>&1)
check "--dry-run on fake Zen 4: group ipc2 (the file's name), 2 counters on CPU 0" bash -c "grep -q '^# group ipc2 (METRICS): 2 events, 1 metrics' <<<'$D' && [ \$(grep -c '^cpu=0 ' <<<'$D') = 2 ]"
check "--dry-run: RET is config 0xc0 on the cpu PMU (type 4)" grep -q 'event=ipc2:RET .*attr=type=4,size=128,config=0xc0,' <<<"$D"

# bad files: one line naming the file and what is wrong, exit 2
# cut after "spec = pag": the event name cut short
head -c $(($(grep -bo 'spec = page-faults' "$SCRATCH/faults.ini" | cut -d: -f1) + 10)) "$SCRATCH/faults.ini" >"$SCRATCH/trunc.ini"
expect_fail 2 "truncated inside [event.0]: the event name cut short" "^uprof pcm: -i .*trunc.ini \[event.0\] 'pag': unknown event" \
	"$UPROF" pcm -i "$SCRATCH/trunc.ini" -d 1
head -c 40 "$SCRATCH/faults.ini" >"$SCRATCH/trunc2.ini"
expect_fail 2 "truncated before any metric" "^uprof pcm: -i .*trunc2.ini" \
	"$UPROF" pcm -i "$SCRATCH/trunc2.ini" -d 1
printf '[event.0]\nname = A\nspec = task-clock\n[metric.0]\nname = M\nformula = A +* 2\n' >"$SCRATCH/formula.ini"
expect_fail 2 "a formula that does not parse" "^uprof pcm: -i .*formula.ini: \[metric.0\] formula: column 4: unexpected '\*'" \
	"$UPROF" pcm -i "$SCRATCH/formula.ini" -d 1
printf '[event.0]\nname = A\nspec = task-clock\n\001\002\003\377garbage\n' >"$SCRATCH/corrupt.ini"
expect_fail 2 "corrupted bytes" "^uprof pcm: -i .*corrupt.ini: syntax error" \
	"$UPROF" pcm -i "$SCRATCH/corrupt.ini" -d 1
printf '[event.0]\nname = A\000\nspec = task-clock\n' >"$SCRATCH/nul.ini"
expect_fail 2 "a NUL byte" "^uprof pcm: -i .*nul.ini" "$UPROF" pcm -i "$SCRATCH/nul.ini" -d 1
printf '<?xml version="1.0"?>\n<Profile name="x"/>\n' >"$SCRATCH/prof.xml"
expect_fail 2 "an XML file: uProf's own format, not read" "^uprof pcm: -i .*prof.xml: an XML file" \
	"$UPROF" pcm -i "$SCRATCH/prof.xml" -d 1
printf '[event.0]\nname = A\nspec = task-clock\n' >"$SCRATCH/nometric.ini"
expect_fail 2 "no [metric.N]: nothing to show" "^uprof pcm: -i .*nometric.ini: no \[metric.N\] section" \
	"$UPROF" pcm -i "$SCRATCH/nometric.ini" -d 1
expect_fail 2 "a file that is not there" "^uprof pcm: -i $SCRATCH/none.ini: No such file" \
	"$UPROF" pcm -i "$SCRATCH/none.ini" -d 1
expect_fail 2 "-i with -m" "^uprof pcm: -i and -m cannot be used together" \
	"$UPROF" pcm -i "$SCRATCH/faults.ini" -m swi -d 1
exit 0
