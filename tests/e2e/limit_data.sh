#!/usr/bin/env bash
# collect --limit-data/--limit-size (uProf's "stop when the raw data reaches this size"):
# the collection ends once samples.data holds the limit, as -d's end does; the file holds
# the limit and at most what the rings and the writer's buffer still held; session.ini and
# report.csv say the limit ended it; a limit never reached changes nothing; bad sizes are
# one line each.
. "$(dirname "$0")/lib/common.sh"

ini() { sed -n "s/^$2 = //p" "$1/session.ini"; }
MIB=1048576
NCPU=$(getconf _NPROCESSORS_ONLN)

# dwarf stacks (8 KiB a sample) fill 1 MiB in ~128 samples; spin_ms wants 4 s of CPU, so
# the limit comes first however loaded the machine is; -b ends the program then
"$UPROF" collect -b --call-graph dwarf --limit-data 1 -o "$SCRATCH/a" "$TGT/spin_ms" 4000 \
	>"$SCRATCH/a.out" 2>"$SCRATCH/a.err"
S=$(session_in "$SCRATCH/a")
check "the limit ended the collection (collect says so)" \
	grep -q "^Collection stopped: samples.data reached --limit-data 1 MiB" "$SCRATCH/a.err"
check "the program was still running when it did (ended by -b: SIGTERM)" \
	grep -q "was killed by signal 15" "$SCRATCH/a.err"
check "session.ini: limit_data_bytes = 1 MiB, limit_data_reached = 1, status complete" \
	[ "$(ini "$S" limit_data_bytes)/$(ini "$S" limit_data_reached)/$(ini "$S" status)" = "$MIB/1/complete" ]
size=$(stat -c %s "$S/samples.data")
# past the limit: what the rings held when it was seen (128 pages a CPU, the default -m),
# the writer's 256 KiB buffer and one drain round
room=$((NCPU * 129 * 4096 + 2 * 256 * 1024))
check_sh "samples.data holds the limit and at most the rings and buffer more ($size bytes, room $room)" \
	'[ "$size" -ge "$MIB" ] && [ "$size" -le $((MIB + room)) ]'
# the program's CPU time is taken when the collection ends, not when -b has wound it down
# (a 0.2 s wait for it to exit was counted: 124 samples over 0.33 s, "562 Hz achieved");
# cpu-clock samples every 1 ms of its CPU time, so the two agree but for the last sample
cpu=$(ini "$S" cpu_ns); n=$(ini "$S" samples)
check_sh "session.ini's CPU time is the collection's: $n samples of 1 ms in $cpu ns" \
	'[ "$n" -gt 0 ] && [ $((cpu / 1000000)) -le $((n + n / 10 + 2)) ]'
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/a.rep"
rc=$?
check_sh "report reads it whole (exit $rc, nothing damaged)" \
	'[ "$rc" -eq 0 ] && ! grep -qi "damaged" "$SCRATCH/a.rep"'
check "report.csv: Stopped By names --limit-data" \
	grep -q '^Stopped By:,"--limit-data 1 MiB: samples.data reached it' "$S/report.csv"
check "report.csv: the session is complete" grep -q '^Session Status:,"complete"' "$S/report.csv"
check "report.csv's samples are session.ini's" \
	[ "$(csvq "$S/report.csv" --key Samples | sed 's/ .*//')" = "$(ini "$S" samples)" ]

# uProf 4's name, with a unit; a limit never reached: the run is whole, nothing said
"$UPROF" collect --limit-size 64M -o "$SCRATCH/b" "$TGT/spin_ms" 100 >/dev/null 2>"$SCRATCH/b.err"
S=$(session_in "$SCRATCH/b")
check "--limit-size 64M never reached: the program ends the run" \
	grep -q "exited with status 0" "$SCRATCH/b.err"
check "session.ini: limit_data_bytes = 64 MiB, limit_data_reached = 0" \
	[ "$(ini "$S" limit_data_bytes)/$(ini "$S" limit_data_reached)" = "$((64 * MIB))/0" ]
"$UPROF" report -i "$S" >/dev/null 2>&1
check "report.csv says nothing of a limit not reached" bash -c "! grep -q '^Stopped By' '$S/report.csv'"

for bad in 0 -1 abc 1T 1.5 2048G 1B; do
	expect_fail 2 "--limit-data $bad is refused" "--limit-data '$bad': give a size in MB" \
		"$UPROF" collect --limit-data "$bad" -o "$SCRATCH/c" "$TGT/spin_ms" 10
done
check "no session was made for a refused size" bash -c "! ls -d '$SCRATCH'/c/uprof-* 2>/dev/null"
echo "1..$_n"
