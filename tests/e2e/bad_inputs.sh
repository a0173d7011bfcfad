#!/usr/bin/env bash
# Issue 12, items 10-13: report never hangs and never misleads on bad session files.
# A FIFO, a directory, a socket or /dev/zero in place of a session file, samples.data cut
# at a record boundary or to its 16-byte header, empty and /dev/zero .tasks files, a
# collect killed in its first milliseconds, and -d 1e9. Every report runs under
# `timeout 20`: a hang is a failure (exit 124), not a stuck suite.
. "$(dirname "$0")/lib/common.sh"

T20="timeout 20"
"$UPROF" collect -o "$SCRATCH/good" "$TGT/demo" 300 >/dev/null 2>&1
G=$(session_in "$SCRATCH/good")
"$UPROF" collect -o "$SCRATCH/tasks" "$TGT/tasks" >/dev/null 2>&1
TS=$(session_in "$SCRATCH/tasks")
fresh() { # fresh NAME SESSION: a copy of SESSION in $D
	D=$SCRATCH/d-$1; rm -rf "$D"; cp -r "$2" "$D"
}
# replace FILE KIND: FILE (a path) becomes a fifo, dir, socket, devzero (the device itself:
# mknod, root only) or link (a symlink to /dev/zero: never followed in a session)
replace() {
	rm -rf "$1"
	case $2 in
	fifo) mkfifo "$1" ;;
	dir) mkdir "$1" ;;
	devzero) mknod "$1" c 1 5 ;;
	link) ln -s /dev/zero "$1" ;;
	socket) "$PYTHON" -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$1" ;;
	esac
}
declare -A WHAT=([fifo]="a FIFO" [dir]="a directory" [devzero]="a character device" [socket]="a socket")
KINDS=(fifo dir socket)
[ "$(id -u)" -eq 0 ] && KINDS+=(devzero) # mknod needs root

# 1. session.ini and samples.data not regular files: one line, exit 1, at once
for f in samples.data session.ini; do
	for k in "${KINDS[@]}"; do
		fresh "$f-$k" "$G"; replace "$D/$f" $k
		expect_fail 1 "$f as ${WHAT[$k]}: refused by name" \
			"^uprof report: $D/$f is ${WHAT[$k]}, not a regular file; collect writes a regular file there: nothing to report$" \
			$T20 "$UPROF" report -i "$D"
	done
	fresh "$f-link" "$G"; replace "$D/$f" link
	expect_fail 1 "$f as a symlink to /dev/zero: refused by name, not followed" \
		"^uprof report: $D/$f is a symbolic link, not followed in a session directory$" \
		$T20 "$UPROF" report -i "$D"
done
fresh pauses-fifo "$G"; replace "$D/pauses.csv" fifo
expect_fail 1 "pauses.csv as a FIFO: refused, and what to do" \
	"^uprof report: $D/pauses.csv is a FIFO, not a regular file; remove it to report without pauses" \
	$T20 "$UPROF" report -i "$D"

# 2. samples.data cut at a record boundary: it reads cleanly, the counts tell
fresh boundary "$G"
read -r counted kept < <("$PYTHON" - "$D/samples.data" "$D/session.ini" <<'PY'
import re, struct, sys
p, ini = sys.argv[1], sys.argv[2]
b = open(p, "rb").read()
counted = int(re.search(r"^samples = (\d+)$", open(ini).read(), re.M).group(1))
pos, seen, cut = 16, 0, None
while pos + 8 <= len(b):
    typ, misc, size = struct.unpack_from("<IHH", b, pos)
    pos += size
    seen += typ == 9  # PERF_RECORD_SAMPLE
    if cut is None and seen * 2 >= counted:
        cut, kept = pos, seen
open(p, "wb").write(b[:cut])
print(counted, kept)
PY
)
echo "# boundary cut: session.ini counted $counted samples, the cut file holds $kept"
check "the cut keeps some samples and loses some ($kept of $counted)" \
	bash -c "[ $kept -gt 0 ] && [ $kept -lt $counted ]"
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"; rc=$?
check "report on the boundary cut exits 0 ($rc)" [ "$rc" -eq 0 ]
check "stderr: damaged, session.ini counted $counted samples, samples.data holds $kept" \
	grep -qx "warning: damaged: session.ini counted $counted samples, samples.data holds $kept (cut short or truncated?)" "$SCRATCH/err"
check "the status line says DAMAGED, not complete" grep -q "^Session DAMAGED: " "$SCRATCH/err"
check "report.csv's Data Damage says the same" \
	grep -qx "Data Damage:,\"session.ini counted $counted samples, samples.data holds $kept\"" "$D/report.csv"
check "the good session has no damage line" bash -c "$T20 '$UPROF' report -i '$G' 2>&1 >/dev/null | grep -q '^Session complete: ' && ! grep -q Damage '$G/report.csv'"

# 3. samples.data of its 16-byte header only
fresh header16 "$G"; truncate -s 16 "$D/samples.data"
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"; rc=$?
check "16-byte samples.data: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "16-byte samples.data: a clear note" \
	grep -q "^warning: samples.data is damaged from offset 16 (nothing after the 16-byte header: cut before collect wrote its events)" "$SCRATCH/err"
check "16-byte samples.data: and the count" grep -q "session.ini counted $counted samples, samples.data holds 0" "$SCRATCH/err"
check "16-byte samples.data: no sanitizer report" bash -c "! grep -q Sanitizer '$SCRATCH/err'"

# 4. .tasks files: empty, /dev/zero, a FIFO, zeros, cut: each named, the rest reported
tasks_case() { # tasks_case NAME PREP PATTERN
	local name=$1 prep=$2 pat=$3 f
	fresh "tasks-$name" "$TS"
	f=$(ls "$D"/instrument/*.tasks | head -1)
	eval "$prep"
	$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"; rc=$?
	check ".tasks $name: exit 0 ($rc)" [ "$rc" -eq 0 ]
	check ".tasks $name: one warning names instrument/$(basename "$f")" \
		grep -qxE "warning: instrument/$(basename "$f") $pat" "$SCRATCH/err"
	check ".tasks $name: report.csv names it too" \
		grep -qxE "Task File Damage:,\"instrument/$(basename "$f") $pat\"" "$D/report.csv"
}
check "the tasks session has two .tasks files (parent and child)" \
	bash -c "[ \$(ls '$TS'/instrument/*.tasks | wc -l) -eq 2 ]"
tasks_case empty ': >"$f"' "is empty \(0 bytes\); its tasks are not reported"
[ "$(id -u)" -eq 0 ] &&
	tasks_case devzero 'replace "$f" devzero' "is a character device, not a regular file; its tasks are not reported"
tasks_case link 'replace "$f" link' "is a symbolic link, not followed in a session directory; its tasks are not reported"
tasks_case fifo 'replace "$f" fifo' "is a FIFO, not a regular file; its tasks are not reported"
tasks_case zeros 'head -c 4096 /dev/zero >"$f"' "offset 0: not a uprof tasks file \(no UPTASKS1 header\); its tasks are not reported"
tasks_case cut 'truncate -s $(( $(stat -c %s "$f") - 3 )) "$f"' "damaged from offset [0-9]+ \(entry runs past the end of the file\); [0-9]+ records before it reported"
# the other process's tasks are still there: the child's DomB/Child or the parent's tasks
fresh tasks-rest "$TS"
$T20 "$UPROF" report -i "$D" >/dev/null 2>&1
all=$(csvq "$D/report.csv" "HOTTEST TASKS" | wc -l)
f=$(ls "$D"/instrument/*.tasks | head -1); replace "$f" fifo
$T20 "$UPROF" report -i "$D" >/dev/null 2>&1
left=$(csvq "$D/report.csv" "HOTTEST TASKS" | wc -l)
check "with one .tasks a FIFO the other process's tasks are reported ($left of $all rows)" \
	bash -c "[ $left -gt 0 ] && [ $left -lt $all ]"

# pauses.csv that lost a row: session.ini's pause total says so
fresh pauses-row "$TS"
check "the tasks session reports complete, without damage" \
	bash -c "$T20 '$UPROF' report -i '$D' 2>&1 >/dev/null | grep -q '^Session complete: ' && ! grep -q Damage '$D/report.csv'"
check "the tasks session has pauses to lose" bash -c "[ \$(wc -l <'$D/pauses.csv') -ge 2 ]"
sed -i '2d' "$D/pauses.csv"
read -r want have < <("$PYTHON" - "$D/session.ini" "$D/pauses.csv" <<'PY'
import re, sys
total = int(re.search(r"^pause_total_ns = (\d+)$", open(sys.argv[1]).read(), re.M).group(1))
rows = [l.split(",") for l in open(sys.argv[2]).read().split("\n")[1:] if l]
print("%.6f %.6f" % (total / 1e9, sum(int(r[2]) - int(r[1]) for r in rows) / 1e9))
PY
)
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"; rc=$?
check "pauses.csv without a row: exit 0 ($rc), damaged: counted $want s paused, holds $have s" \
	bash -c "[ $rc -eq 0 ] && grep -qx 'warning: damaged: session.ini counted $want s paused, pauses.csv holds $have s' '$SCRATCH/err'"

# 5. a collect killed in its first milliseconds: reported, or refused saying so
for t in 0 0.005 0.01 0.02 0.03 0.05 0.08; do
	K=$SCRATCH/kill-$t; mkdir -p "$K"
	"$UPROF" collect -o "$K" "$TGT/demo" 300 >/dev/null 2>&1 &
	pid=$!; sleep $t; kill -9 $pid; wait $pid 2>/dev/null
	S=$(session_in "$K")
	if [ -z "$S" ]; then
		ok "killed after $t s: no session directory left"
		continue
	fi
	$T20 "$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"; rc=$?
	if [ "$rc" -eq 0 ]; then
		check "killed after $t s: reported as interrupted" grep -q "^Session INTERRUPTED: " "$SCRATCH/err"
	else
		check "killed after $t s: refused (exit $rc), saying collect was interrupted: $(cat "$SCRATCH/err")" \
			bash -c "[ $rc -eq 1 ] && [ \$(grep -c . '$SCRATCH/err') -eq 1 ] && grep -q 'collect was interrupted before it wrote' '$SCRATCH/err'"
	fi
done
E=$SCRATCH/e/uprof-demo-TBP_Dec-01-2026_00-00-00; mkdir -p "$E"
expect_fail 1 "an empty session directory: collect was interrupted" \
	"^uprof report: $E holds no profile: collect was interrupted before it wrote session.ini" \
	$T20 "$UPROF" report -i "$E"
# killed while it wrote session.ini (made as .session.ini.tmp, then renamed): the same
: >"$E/.session.ini.tmp"
expect_fail 1 "a session directory with only a half-written session.ini: collect was interrupted" \
	"^uprof report: $E holds no profile: collect was interrupted before it wrote session.ini" \
	$T20 "$UPROF" report -i "$E"
rm -f "$E/.session.ini.tmp"

# 6. -d takes what strtod reads that is finite and above 0
"$UPROF" collect -d 1e9 -o "$SCRATCH/d" "$TGT/demo" 50 >/dev/null 2>"$SCRATCH/err"; rc=$?
check "-d 1e9 is accepted; collect ends with the program (exit $rc)" \
	bash -c "[ $rc -eq 0 ] && grep -q '^Profiling (data collection) completed' '$SCRATCH/err'"
for v in inf nan 1e999 0 -1 abc ""; do
	expect_fail 2 "-d '$v' refused" "^uprof collect: -d/--duration '$v' is not a positive number of seconds \(a finite number above 0: 10, 0.5, 1e3\)$" \
		"$UPROF" collect -d "$v" -o "$SCRATCH/d" /bin/true
done
# --mpi-top: a count of call sites, 0 for all; anything else refused before any reading
for v in abc -3 1.5 ""; do
	expect_fail 2 "--mpi-top '$v' refused" "^uprof report: --mpi-top '$v' is not a call site count \(0 = all\)$" \
		"$UPROF" report -i "$SCRATCH" --mpi-top "$v"
done
# timechart: the interval, the format and the duration (tests/e2e/timechart.sh has the rest)
expect_fail 2 "timechart -t 9 refused" "^uprof timechart: .*'9' is not an interval of 10 to 3600000 ms" \
	"$UPROF" timechart -t 9 -d 1 -o "$SCRATCH/tc"
expect_fail 2 "timechart -f json refused" "^uprof timechart: -f: 'json' is not a format \(csv or txt\)$" \
	"$UPROF" timechart -f json -d 1 -o "$SCRATCH/tc"
expect_fail 2 "timechart -d 1x refused" "^uprof timechart: -d: '1x' is not a duration in seconds" \
	"$UPROF" timechart -d 1x -o "$SCRATCH/tc"
# pcm's options from issue 33: one line naming the option, exit 2
expect_fail 2 "pcm --family zen9 refused" "^uprof pcm: --family 'zen9': zen3, zen4 or zen5" \
	"$UPROF" pcm -m ipc --family zen9 --dry-run
expect_fail 2 "pcm --start-delay abc refused" "^uprof pcm: --start-delay 'abc': milliseconds" \
	"$UPROF" pcm -m swi -C --start-delay abc -- /bin/true
expect_fail 2 "pcm --pid abc refused" "^uprof pcm: --pid 'abc': a process or thread id" \
	"$UPROF" pcm -m swi -C --pid abc
expect_fail 2 "pcm -x abc refused" "^uprof pcm: -x 'abc': a CPU list" \
	"$UPROF" pcm -m swi -C -x abc -- /bin/true
expect_fail 2 "pcm --msr refused with the reason" "^uprof pcm: --msr: .*drop --msr" \
	"$UPROF" pcm -m swi -C --msr -- /bin/true
# UPROF_MPI_EVENTS under --trace mpi=full: a count of events a rank records, 1 to 2^24;
# anything else (which the interposer took for "no events", or capped) refused before
# the launcher is even looked for; a good count goes on to that check
for v in abc -3 0 1.5 " 5" "" 16777217 99999999999999999999999; do
	expect_fail 2 "UPROF_MPI_EVENTS='$v' refused" "^uprof collect: UPROF_MPI_EVENTS='$v' is not a count of MPI events a rank records \(1 to 16777216\); unset it for the default, 1000000$" \
		env UPROF_MPI_EVENTS="$v" "$UPROF" collect --trace mpi=full -o "$SCRATCH/ev" /bin/true
done
for v in 1 16777216; do
	expect_fail 2 "UPROF_MPI_EVENTS=$v taken: the next check (no launcher) speaks" "^uprof collect: --mpi: not started by an MPI launcher" \
		env UPROF_MPI_EVENTS="$v" "$UPROF" collect --trace mpi=full -o "$SCRATCH/ev" /bin/true
done
expect_fail 2 "UPROF_MPI_EVENTS=abc under --trace mpi=lwt: not read (no events recorded)" "^uprof collect: --mpi: not started by an MPI launcher" \
	env UPROF_MPI_EVENTS=abc "$UPROF" collect --trace mpi=lwt -o "$SCRATCH/ev" /bin/true
# --max-threads and --buffer-size (--trace os): a count, a power of two; refused before
# anything runs, and without --trace os they are refused too
for v in 0 -1 abc 1.5 "" 99999999999; do
	expect_fail 2 "--max-threads '$v' refused" "^uprof collect: --max-threads '$v' is not a number of threads from 1 to [0-9]+$" \
		"$UPROF" collect --trace os --max-threads "$v" -o "$SCRATCH/d" /bin/true
done
for v in 0 3 100 131072 abc -4 ""; do
	expect_fail 2 "--buffer-size '$v' refused" "^uprof collect: --buffer-size '$v' is not a number of pages per CPU: a power of two from 1 to 65536$" \
		"$UPROF" collect --trace os --buffer-size "$v" -o "$SCRATCH/d" /bin/true
done
expect_fail 2 "--max-threads without --trace os refused" "^uprof collect: --max-threads sets the OS trace: give --trace os" \
	"$UPROF" collect --max-threads 8 -o "$SCRATCH/d" /bin/true
expect_fail 2 "--buffer-size and a different -m refused" "^uprof collect: --buffer-size and -m/--mmap-pages both size the rings: give one$" \
	"$UPROF" collect --trace os --buffer-size 8 -m 16 -o "$SCRATCH/d" /bin/true
exit 0
