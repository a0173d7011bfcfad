#!/usr/bin/env bash
# uprof collect SIGKILLed at 20 points of a run (issue 12, Must show 4): during start-up
# (at once, when the session directory, session.ini, samples.data appear, at the
# "Profiling started" line, when the target's page is taken), in steady state (0.1 to
# 1 s in), during drains (when samples.data is seen growing: the 1st, 3rd, 10th and 30th
# time) and during the end (a target that exits by itself after making pause calls: when
# it exits, when pauses.csv.tmp and pauses.csv appear, when session.ini is being
# rewritten). The points are events seen (a poller that kills the moment it sees one),
# never moments guessed, and each check holds wherever the kill lands:
#  - the session is reported (exit 0, status interrupted, or complete when collect had
#    finished first) or refused with exactly one line on stderr; never a crash or a hang
#    (each report is bounded by a timeout);
#  - the target (kill_target: a strict pause/resume pair and a task every ms) goes on
#    running, and once collect is gone (reaped), none of its next 50 strict pairs fails,
#    waits (a voluntary context switch: the futex wait for a profiler) or takes 1 ms
#    (wall time of the calls the scheduler did not preempt: on a loaded machine any call
#    may be; that is not a wait): it measures its own calls (docs/DESIGN.md §5: a dead
#    profiler is noticed at once).
. "$(dirname "$0")/lib/common.sh"

echo "# kill_points: collect SIGKILLed at 20 points"

# killer.py DIR HOLD WHAT ARG CMD...: run CMD (collect) with its stderr in DIR/err, poll
# every 0.1 ms (30 s at most, or until it ends) until WHAT holds, SIGKILL it, reap it;
# prints what it saw (or "bound": it never held) and collect's exit status. Python starts
# slowly on a loaded machine (1.5 s seen): it starts collect itself, so nothing is missed.
# HOLD 1: once the run is on, strace holds collect's main thread 0.3 s at each rename
# (pauses.csv.tmp -> pauses.csv, .session.ini.tmp -> session.ini): the end of a run takes
# a few ms, too short to be seen and hit otherwise. Without strace (or ptrace) the end
# points still check what they check, wherever the kill lands.
cat >"$SCRATCH/killer.py" <<'PY'
import glob, os, re, signal, subprocess, sys, time
d, hold, what, arg = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4]
err = open(d + "/err", "w")
col = subprocess.Popen(sys.argv[5:], stdout=subprocess.DEVNULL, stderr=err)
def sess():
    s = glob.glob(d + "/uprof-*")
    return s[0] if s else None
def said(pat):
    try:
        return re.search(pat, open(d + "/err").read(), re.M) is not None
    except OSError:
        return False
def has(name):
    s = sess()
    return s is not None and bool(glob.glob(s + "/" + name))
start, t_started, size0, grown, tracer = time.monotonic(), None, None, 0, None
seen = "bound"
while time.monotonic() - start < 30 and col.poll() is None:
    if t_started is None and said("^Profiling started"):
        t_started = time.monotonic()
        if hold:
            tracer = subprocess.Popen(["strace", "-o", "/dev/null", "-p", str(col.pid), "-e",
                                       "trace=rename,renameat,renameat2", "-e",
                                       "inject=rename,renameat,renameat2:delay_enter=300000"],
                                      stderr=subprocess.DEVNULL)
    if hold and t_started is None:
        ok = False  # the end's steps only: the first session.ini is written the same way
    elif what == "now":
        ok = True
    elif what == "session":
        ok = sess() is not None
    elif what == "file":
        ok = has(arg)
    elif what == "said":
        ok = said(arg)
    elif what == "mark":
        ok = os.path.exists(arg)
    elif what == "after":
        ok = t_started is not None and time.monotonic() - t_started >= float(arg)
    elif what == "grew":
        s = sess()
        try:
            size = os.stat(s + "/samples.data").st_size if s else None
        except OSError:
            size = None
        if size is not None and size0 is not None and size != size0:
            grown += 1
        size0 = size if size is not None else size0
        ok = grown >= int(arg)
    if ok:
        seen = what
        break
    time.sleep(0.0001)
if col.poll() is None:
    col.send_signal(signal.SIGKILL)
else:
    seen += " (collect had ended)"
rc = col.wait()
if tracer:
    tracer.wait()
print(seen, 128 - rc if rc < 0 else rc)
PY
HOLD=0
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	HOLD=1
fi

# point NAME busy|end WHAT [ARG]: run collect, kill it at WHAT, check what it left
point() {
	local name=$1 mode=$2 what=$3 arg=${4:-}
	local D=$SCRATCH/$name rc S out lines seen
	mkdir -p "$D"
	if [ "$mode" = busy ]; then
		seen=$("$PYTHON" "$SCRATCH/killer.py" "$D" 0 "$what" "$arg" \
			"$UPROF" collect -o "$D" "$TGT/kill_target" "$D/go" "$D/out" 50)
	else
		seen=$("$PYTHON" "$SCRATCH/killer.py" "$D" "$HOLD" "$what" "$arg" \
			"$UPROF" collect -o "$D" "$TGT/kill_target" - "$D/mark" 0.4)
	fi
	rc=${seen##* }
	echo "# $name: killed at: ${seen% *}; collect's exit: $rc"
	# the report: an interrupted session (or a complete one, if collect had ended), or one
	# line saying why there is none
	S=$(session_in "$D")
	timeout 60 "$UPROF" report -i "${S:-$D}" >/dev/null 2>"$D/rerr"
	out=$?
	lines=$(grep -c . "$D/rerr")
	if [ "$out" -eq 0 ]; then
		local want=interrupted
		[ "$rc" -eq 0 ] && want=complete
		if [ "$want" = interrupted ]; then
			check "$name: collect $rc, the session is reported interrupted, and said so" \
				bash -c "grep -q 'Session Status:,\"interrupted\"' '$S/report.csv' && grep -q INTERRUPTED '$D/rerr'"
		else
			check "$name: collect $rc, the session is reported complete" \
				grep -q 'Session Status:,"complete"' "$S/report.csv"
		fi
	else
		check "$name: collect $rc, report refuses in one line (exit $out): $(head -c 160 "$D/rerr")" \
			bash -c "[ $out -lt 124 ] && [ $lines -eq 1 ]"
	fi
	[ "$mode" = busy ] || return 0
	# the target, once collect is gone: if it was started at all (it writes its pid first)
	local i
	for ((i = 0; i < 100; i++)); do [ -s "$D/out.pid" ] && break; sleep 0.01; done
	if [ ! -s "$D/out.pid" ]; then
		if pgrep -f "kill_target $D/go" >/dev/null; then
			not_ok "$name: a target of the killed collect runs without having started"
		else
			ok "$name: killed before the target started: no target left"
		fi
		return 0
	fi
	: >"$D/go"
	for ((i = 0; i < 3000; i++)); do [ -s "$D/out" ] && break; sleep 0.01; done
	local res
	res=$(cat "$D/out" 2>/dev/null)
	local k calls f failed b blocked m max
	read -r k calls f failed b blocked m max <<<"$res"
	# a strict call waits only in a futex sleep (ins_wait_applied), a voluntary switch the
	# target counts: blocked 0 is "no wait". Its longest call is shown, not bounded: on a
	# loaded VM a call can lose its vCPU without any switch of its own (the merge's run
	# beside two CPU hogs saw 2.06 ms)
	check_sh "$name: after collect is gone, no strict call fails or waits ($res)" \
		'[ "$k.$f.$b.$m" = calls.failed.blocked.max_ns ] && [ "$calls" = 100 ] &&
		[ "$failed" = 0 ] && [ "$blocked" = 0 ]'
}

# start-up
point at-once busy now
point session-dir busy session
point session-ini busy file session.ini
point samples-data busy file samples.data
point started busy said '^Profiling started'
point page-taken busy file 'instrument/*.tasks'
# steady state
for t in 0.1 0.2 0.35 0.5 0.75 1.0; do
	point "steady-$t" busy after "$t"
done
# drains
for k in 1 3 10 30; do
	point "drain-$k" busy grew "$k"
done
# the end
point end-target-exits end mark "$SCRATCH/end-target-exits/mark"
point end-pauses-tmp end file pauses.csv.tmp
point end-pauses end file pauses.csv
point end-session-rewrite end file .session.ini.tmp
