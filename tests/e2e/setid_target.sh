#!/usr/bin/env bash
# A program the kernel will not let a user profile: a set-user-ID root copy of the CPU
# burner (demo), and an execute-only copy, run by uprof as nobody. The kernel closes the
# events a process inherited at an exec that changes its credentials or of a file the
# user may not read, so the profile is empty; collect says so before the run, the session
# records it ([target] not_profiled), report says it on the terminal and in report.csv.
# Controls: the same program without the bit (nobody profiles it), and the set-user-ID
# copy run by root (no change of credentials): samples, and no such line. And a set-ID
# exec behind a shell, still running when -d ends: found from the target's ids.
. "$(dirname "$0")/lib/common.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP setid_target needs root (to make a set-user-ID root file) and setpriv"
	exit 0
fi
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 2 ]; then
	ok "# SKIP kernel.perf_event_paranoid > 2: an unprivileged user cannot profile at all"
	exit 0
fi
AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$SCRATCH"
P=$SCRATCH/prog
mkdir "$P" && chmod 755 "$P"
cp "$TGT/demo" "$P/burn" && chmod 4755 "$P/burn"
cp "$TGT/demo" "$P/plain" && chmod 755 "$P/plain"
cp "$TGT/demo" "$P/xonly" && chmod 711 "$P/xonly"
cp "$TGT/demo" "$P/sgid" && chgrp 0 "$P/sgid" && chmod 2755 "$P/sgid"
if findmnt -no OPTIONS --target "$P" | tr , '\n' | grep -qx nosuid; then
	ok "# SKIP $P is on a nosuid file system: the set-user-ID bit would not take effect"
	exit 0
fi
mkdir "$SCRATCH/u" && chown 65534:65534 "$SCRATCH/u"
export PERF_BUILDID_DIR=$SCRATCH/u/.debug
# run_as WHO NAME PROG ARGS...: collect -o $SCRATCH/u/NAME, stderr in $SCRATCH/NAME.err
run_as() {
	local who=$1 name=$2; shift 2
	mkdir -p "$SCRATCH/u/$name" && chown 65534:65534 "$SCRATCH/u/$name"
	if [ "$who" = nobody ]; then
		"${AS_NOBODY[@]}" "$UPROF" collect -o "$SCRATCH/u/$name" "$@" >/dev/null 2>"$SCRATCH/$name.err"
	else
		"$UPROF" collect -o "$SCRATCH/u/$name" "$@" >/dev/null 2>"$SCRATCH/$name.err"
	fi
}
key() { sed -n "s/^$1 = //p" "$2/session.ini"; }

# ---- the set-user-ID root copy, as nobody ----
run_as nobody suid "$P/burn" 300
S=$(session_in "$SCRATCH/u/suid")
why="$P/burn is set-user-ID uid 0 (root) and you are uid 65534 (nobody): at its exec the kernel stops the events of a process whose credentials change; run uprof as root"
check "set-user-ID root, as nobody: collect warns before the run, naming the file, the owner and what to do" \
	grep -qxF "uprof collect: warning: the program will not be profiled: $why" "$SCRATCH/suid.err"
check "the warning comes before 'Profiling started'" \
	bash -c "[ \$(grep -n 'will not be profiled' '$SCRATCH/suid.err' | cut -d: -f1) -lt \$(grep -n '^Profiling started' '$SCRATCH/suid.err' | cut -d: -f1) ]"
check "and again at the end, with the count" \
	grep -qxF "uprof collect: warning: the program was not profiled (0 samples): $why" "$SCRATCH/suid.err"
cpu=$(key cpu_ns "$S")
check "the program ran ($cpu ns of CPU time) and not one sample came ($(key samples "$S"))" \
	bash -c "[ '$cpu' -gt 0 ] && [ '$(key samples "$S")' = 0 ]"
check "session.ini records why ([target] not_profiled)" [ "$(key not_profiled "$S")" = "$why" ]
"${AS_NOBODY[@]}" "$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/suid.rerr"
check "report's terminal says it ($?)" grep -qxF "warning: the program was not profiled: $why" "$SCRATCH/suid.rerr"
check "report.csv says it (Target Not Profiled)" grep -qxF "Target Not Profiled:,\"$why\"" "$S/report.csv"

# ---- controls: the bit is the cause ----
run_as nobody plain "$P/plain" 300
S=$(session_in "$SCRATCH/u/plain")
check "the same program without the bit, as nobody: samples ($(key samples "$S")), no not_profiled" \
	bash -c "[ '$(key samples "$S")' -gt 0 ] && [ -z '$(key not_profiled "$S")' ] && ! grep -q 'not be profiled' '$SCRATCH/plain.err'"
run_as root root "$P/burn" 300
S=$(session_in "$SCRATCH/u/root")
check "the set-user-ID root copy run by root: samples ($(key samples "$S")), no not_profiled" \
	bash -c "[ '$(key samples "$S")' -gt 0 ] && [ -z '$(key not_profiled "$S")' ] && ! grep -q 'not be profiled' '$SCRATCH/root.err'"

# ---- an execute-only file: not dumpable, the same loss ----
run_as nobody xonly "$P/xonly" 300
S=$(session_in "$SCRATCH/u/xonly")
check "execute-only, as nobody: warned, 0 samples, recorded ($(key samples "$S"))" \
	bash -c "grep -q 'will not be profiled: $P/xonly is not readable by uid 65534 (nobody)' '$SCRATCH/xonly.err' &&
		[ '$(key samples "$S")' = 0 ] && [ -n '$(key not_profiled "$S")' ]"

# ---- set-group-ID root: the group changes, the same loss ----
run_as nobody sgid "$P/sgid" 300
S=$(session_in "$SCRATCH/u/sgid")
check "set-group-ID gid 0, as nobody: warned, 0 samples, recorded ($(key samples "$S"))" \
	bash -c "grep -q 'will not be profiled: $P/sgid is set-group-ID gid 0' '$SCRATCH/sgid.err' &&
		[ '$(key samples "$S")' = 0 ] && [ -n '$(key not_profiled "$S")' ]"

# ---- file capabilities: privileges gained at the exec ----
if command -v setcap >/dev/null && cp "$TGT/demo" "$P/caps" && setcap cap_net_raw+ep "$P/caps" 2>/dev/null; then
	run_as nobody caps "$P/caps" 300
	S=$(session_in "$SCRATCH/u/caps")
	check "file capabilities, as nobody: warned, 0 samples, recorded ($(key samples "$S"))" \
		bash -c "grep -q 'will not be profiled: $P/caps has file capabilities' '$SCRATCH/caps.err' &&
			[ '$(key samples "$S")' = 0 ] && [ -n '$(key not_profiled "$S")' ]"
else
	ok "# SKIP file capabilities: setcap is missing or refused here"
fi

# ---- behind a shell (the start sees sh), still running when -d ends: its ids say it ----
run_as nobody wrapped -d 0.5 /bin/sh -c "exec '$P/burn' 100000"
S=$(session_in "$SCRATCH/u/wrapped")
pid=$(key pids "$S")
check "set-ID exec behind sh: found at the end from the target's ids, warned and recorded" \
	bash -c "grep -q 'warning: the program was not profiled: the program runs with other ids than yours (uid 65534, effective 0' '$SCRATCH/wrapped.err' &&
		grep -q '^not_profiled = the program runs with other ids than yours' '$S/session.ini'"
[ -n "$pid" ] && kill "$pid" 2>/dev/null
exit 0
