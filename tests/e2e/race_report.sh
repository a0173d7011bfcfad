#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# report run by root on a session another user (uid 65534) collected in a directory that
# user owns, while that user swaps things for symlinks to a root-only victim directory at
# every step (docs/DESIGN.md §4, the directory-fd rule). swaptrace (tests/tool) stops
# report at its K-th file syscall that names something under the watched directory and,
# before the call runs, renames every entry there to NAME.moved and plants NAME -> victim
# (as uid 65534). For every K: nothing appears in the victim, nothing there changes (bytes
# or mode), and report ends with a line of its own (exit 0 or 1), never a crash. Two
# attacks: the session's own entries swapped (the report's outputs planted as links too),
# and the session directory itself swapped in its parent; the same for translate.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/race.sh"

SWAP=$TGT/swaptrace
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP the race needs root and setpriv (a second user)"
	exit 0
fi
if [ ! -x "$SWAP" ]; then
	not_ok "no $SWAP: make builds it (tests/targets/module.mk)"
	exit 0
fi
if ! "$SWAP" --count -- /bin/true 2>/dev/null; then
	ok "# SKIP ptrace is not allowed here (seccomp or yama): swaptrace cannot run"
	exit 0
fi
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$SCRATCH"
W=$SCRATCH/w
mkdir "$W" && chown 65534:65534 "$W"
(cd "$W" && "${NOBODY[@]}" "$UPROF" collect -o "$W" "$TGT/tasks" >/dev/null 2>&1)
S0=$(session_in "$W")
if [ -z "$S0" ] || ! grep -qx "status = complete" "$S0/session.ini" 2>/dev/null; then
	ok "# SKIP uid 65534 could not collect here (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"
	exit 0
fi
# the pristine session, kept out of the attacker's directory; each run gets a fresh copy
P=$SCRATCH/pristine
mv "$S0" "$P"
NAME=${S0##*/}

V=$SCRATCH/victim
mkdir -m 700 "$V"
echo "root's own bytes" >"$V/keep" && chmod 600 "$V/keep"
BEFORE=$(victim_state)

# fresh: the session at $W/$NAME again as its owner left it, nothing else in $W
fresh() {
	rm -rf "${W:?}"/* "$W"/.[!.]* 2>/dev/null
	cp -a "$P" "$W/$NAME" && chown -R 65534:65534 "$W/$NAME"
}
OUTS=(--plant report.csv --plant stacks.folded --plant flamegraph.svg --plant trace.json)

CMD=("$UPROF" report -i "$W/$NAME" --export all)

race "the session's entries swapped for links" "$W/$NAME" "${OUTS[@]}"
race "the session directory swapped in its parent" "$W"
# translate writes translated.bin (and reads every module): the same two attacks
CMD=("$UPROF" translate -i "$W/$NAME" --retranslate)
race "translate: the session's entries swapped" "$W/$NAME" --plant translated.bin
race "translate: the session directory swapped in its parent" "$W"
