#!/usr/bin/env bash
# Progress lines (issue 17): collect's status line with -d (elapsed, remaining, samples,
# lost, samples/s) and report's reading line, on stderr of a terminal only (script(1)
# gives uprof a pty): never in a pipe, never with CI set, never with -q, never with
# report --stdout; at most 4 lines a second; erased at the end.
# run-alone: collect -a takes every control page in /dev/shm (another test's, from its own
# collect)
. "$(dirname "$0")/lib/common.sh"
command -v script >/dev/null || { ok "# SKIP script(1) is not installed"; echo "1..$_n"; exit 0; }
# pty CMD...: run under a pseudo-terminal with CI unset; everything it wrote, on stdout
pty() { env -u CI script -qfec "$*" /dev/null; }
n_status() { grep -ao 'Profiling: [0-9.]* s, [0-9]* s remaining, [0-9]* samples, [0-9]* lost, [0-9]* samples/s' "$1" | wc -l; }

pty "'$UPROF' collect --timer-interval 0.1 -d 1.5 -b -o '$SCRATCH/c1' '$TGT/demo' 8000" >"$SCRATCH/tty1" 2>&1
n=$(n_status "$SCRATCH/tty1")
check "collect -d 1.5 on a terminal: status lines with elapsed, remaining, samples, lost, rate ($n)" \
	[ "$n" -ge 3 ]
check "collect: at most 4 status lines a second ($n in 1.5 s)" [ "$n" -le 7 ]
last=$(grep -ao 'Profiling: [0-9.]* s, [0-9]* s remaining, [0-9]* samples' "$SCRATCH/tty1" | tail -1 | awk '{print $2}')
check "collect: the last status line is near the end of -d 1.5 ($last s)" near "$last" 1.3 0.35
# the samples on the last line never exceed what the session counted
s_last=$(grep -ao '[0-9]* samples, ' "$SCRATCH/tty1" | tail -1 | awk '{print $1}')
S=$(session_in "$SCRATCH/c1")
s_all=$(sed -n 's/^samples = //p' "$S/session.ini")
check "collect: the status line's samples ($s_last) are within the session's ($s_all)" \
	bash -c "[ '${s_last:-x}' -gt 0 ] && [ '$s_last' -le '$s_all' ]"
check "collect: the line is erased before the next message" \
	bash -c "grep -aq 'samples/s' '$SCRATCH/tty1' && tr '\r' '\n' <'$SCRATCH/tty1' | grep -a -A1 'samples/s' | tail -1 | grep -aq '^ *\$'"
pty "'$UPROF' collect -q -d 0.8 -b -o '$SCRATCH/c2' '$TGT/demo' 8000" >"$SCRATCH/tty2" 2>&1
check "collect -q on a terminal: no status line" [ "$(n_status "$SCRATCH/tty2")" = 0 ]
CI=1 script -qfec "'$UPROF' collect -d 0.8 -b -o '$SCRATCH/c3' '$TGT/demo' 8000" /dev/null >"$SCRATCH/tty3" 2>&1
check "collect with CI set: no status line" [ "$(n_status "$SCRATCH/tty3")" = 0 ]
env -u CI "$UPROF" collect -d 0.8 -b -o "$SCRATCH/c4" "$TGT/demo" 8000 >"$SCRATCH/p4.out" 2>"$SCRATCH/p4.err"
check "collect in a pipe: no status line" bash -c "! grep -aq 'samples/s' '$SCRATCH/p4.err' '$SCRATCH/p4.out'"
pty "'$UPROF' collect -d 0.8 -b -o '$SCRATCH/c5' '$TGT/demo' 8000 2>/dev/null" >"$SCRATCH/tty5"
check "collect: the status line is on stderr, never stdout" [ "$(n_status "$SCRATCH/tty5")" = 0 ]
if "$UPROF" collect -a -d 0.2 -o "$SCRATCH/a0" >/dev/null 2>&1; then
	pty "'$UPROF' collect -a -d 1 -o '$SCRATCH/a1'" >"$SCRATCH/tty6" 2>&1
	check "collect -a -d 1: status lines" [ "$(n_status "$SCRATCH/tty6")" -ge 2 ]
else
	ok "collect -a status line # SKIP -a needs kernel.perf_event_paranoid <= 0 or root"
fi

# report: UPROF_PROGRESS_DELAY=0 shows the line on this short session (the default waits
# a second, and this report takes less)
R=$(session_in "$SCRATCH/c1")
size=$(stat -c %s "$R/samples.data")
mb=$("$PYTHON" -c "print(f'{$size / 1e6:.1f}')")
UPROF_PROGRESS_DELAY=0 pty "'$UPROF' report -i '$R'" >"$SCRATCH/r1" 2>&1
check "report on a terminal: 'Reading samples.data: N records, X of $mb MB'" \
	grep -aqE "Reading samples.data: [0-9]+ records, [0-9.]+ of $mb MB" "$SCRATCH/r1"
check "report: the line is erased before 'Generated report file'" \
	bash -c "grep -aq 'Reading samples' '$SCRATCH/r1' && tr '\r' '\n' <'$SCRATCH/r1' | grep -a -B1 '^Generated report file' | head -1 | grep -aq '^ *\$'"
pty "'$UPROF' report -i '$R'" >"$SCRATCH/r2" 2>&1
check "report under a second: no line without UPROF_PROGRESS_DELAY" bash -c "! grep -aq 'Reading samples' '$SCRATCH/r2'"
UPROF_PROGRESS_DELAY=0 pty "'$UPROF' report -q -i '$R'" >"$SCRATCH/r3" 2>&1
check "report -q: no line" bash -c "! grep -aq 'Reading samples' '$SCRATCH/r3'"
UPROF_PROGRESS_DELAY=0 pty "'$UPROF' report --stdout -i '$R'" >"$SCRATCH/r4" 2>&1
check "report --stdout: no line" bash -c "! grep -aq 'Reading samples' '$SCRATCH/r4'"
UPROF_PROGRESS_DELAY=0 env -u CI "$UPROF" report -i "$R" >"$SCRATCH/r5" 2>&1
check "report in a pipe: no line" bash -c "! grep -aq 'Reading samples' '$SCRATCH/r5'"
UPROF_PROGRESS_DELAY=0 CI=true script -qfec "'$UPROF' report -i '$R'" /dev/null >"$SCRATCH/r6" 2>&1
check "report with CI set: no line" bash -c "! grep -aq 'Reading samples' '$SCRATCH/r6'"
echo "1..$_n"
