#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The result files other commands write where a user points them, run by root in a
# directory another user (uid 65534) owns (docs/DESIGN.md §4, the directory-fd rule):
#   - pcm -o FILE / -O DIR: names planted there beforehand (a link to a root-only victim,
#     that user's own file, a link in place of -O's directory) are refused with one line,
#     and the victim is untouched; then swaptrace (tests/tool) swaps every entry of the
#     directory for a link to the victim at each of pcm's file calls under it in turn;
#   - profile: collect's session handed to report by its fd, so a session directory
#     swapped between the two at each file call is never what report reads or writes.
# For every swap: nothing appears in the victim or changes there (bytes, mode), and the
# command ends with a line of its own, never a crash.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/race.sh"

SWAP=$TGT/swaptrace
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP needs root and setpriv (a second user)"
	exit 0
fi
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$SCRATCH"
W=$SCRATCH/w
mkdir "$W" && chown 65534:65534 "$W" && chmod 1777 "$W"
V=$SCRATCH/victim
mkdir -m 700 "$V"
echo "root's own bytes" >"$V/keep" && chmod 600 "$V/keep"
BEFORE=$(victim_state)
PCM=("$UPROF" pcm -m swi -I 100 -d 0.3)

# ---- names planted before pcm runs ----
"${NOBODY[@]}" ln -s "$V/keep" "$W/link.csv"
"${PCM[@]}" -o "$W/link.csv" -- /bin/true >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "pcm -o onto another user's link: refused (exit $rc) in one line" \
	'[ $rc = 1 ] && [ "$(grep -c . "$SCRATCH/err")" -ge 1 ] && grep -q "link.csv" "$SCRATCH/err"'
"${NOBODY[@]}" sh -c "echo theirs >'$W/theirs.csv'"
"${PCM[@]}" -o "$W/theirs.csv" -- /bin/true >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "pcm -o onto another user's file: refused (exit $rc), the file left as it was" \
	'[ $rc = 1 ] && [ "$(cat "$W/theirs.csv")" = theirs ] && grep -q "another user" "$SCRATCH/err"'
"${NOBODY[@]}" ln -s "$V" "$W/outdir"
"${PCM[@]}" -O "$W/outdir" -- /bin/true >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "pcm -O onto another user's link to a directory: refused (exit $rc)" '[ $rc = 1 ]'
check "nothing planted reached the victim" [ "$(victim_state)" = "$BEFORE" ]
"${PCM[@]}" -O "$W/mine" --html -- /bin/true >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "pcm -O a new directory: made, report.csv and report.html in it (exit $rc)" \
	'[ $rc = 0 ] && [ -s "$W/mine/report.csv" ] && [ -s "$W/mine/report.html" ]'
check "pcm -O: the directory is root's, 0755; its files 0644" \
	[ "$(stat -c '%u %a' "$W/mine" "$W/mine/report.csv" | paste -sd' ')" = "0 755 0 644" ]

# ---- the race: every entry of the directory swapped at each file call under it ----
if [ ! -x "$SWAP" ]; then
	not_ok "no $SWAP: make builds it (tests/targets/module.mk)"
	exit 0
fi
if ! "$SWAP" --count -- /bin/true 2>/dev/null; then
	ok "# SKIP ptrace is not allowed here (seccomp or yama): swaptrace cannot run"
	exit 0
fi
empty_w() { rm -rf "${W:?}"/* "$W"/.[!.]* 2>/dev/null; }

fresh() { empty_w; }
CMD=("${PCM[@]}" -O "$W/out" --html -- /bin/true)
race "pcm -O" "$W" --plant out
CMD=("${PCM[@]}" -o "$W/res.csv" --html -- /bin/true)
race "pcm -o" "$W" --plant res.csv --plant report.html

# profile: collect then report in one command; the session directory (and everything in
# it) swapped at each file call under $W for a link to a root-only directory holding a
# session of its own: a report that opened the path again would read that one and write
# its report.csv there
V=$SCRATCH/victim2
mkdir -m 700 "$V"
"$UPROF" collect -o "$V" "$TGT/demo" 1 >/dev/null 2>&1
S=$(session_in "$V")
check "a root-only session for the attacker to point at" [ -f "$S/session.ini" ]
mv "$S"/* "$S"/.[!.]* "$V"/ 2>/dev/null
rmdir "$S"
echo "root's own bytes" >"$V/keep" && chmod 600 "$V/keep"
BEFORE=$(victim_state)
fresh() { empty_w; }
CMD=("$UPROF" profile -o "$W" "$TGT/demo" 1)
RACE_REFUSED_BY='^uprof report:' RACE_TIMEOUT=120 race "profile" "$W" --plant report.csv
# report reads the directory collect made by its fd, wherever the attacker moved it: it
# never meets the link (a report that opened the path again would refuse it, or worse)
check_sh "profile: report read the session collect made after every swap ($refused refused by report)" '[ $refused = 0 ]'
