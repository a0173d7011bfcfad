#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# report, translate and compare run by root on a session another user (uid 65534) collected
# and owns (docs/DESIGN.md §4, the directory-fd rule). Every session file that user turns
# into a symbolic link to a root-only file is refused or skipped with one line naming it:
# nothing is read through it (the victim holds a valid copy of the file, so a report that
# followed the link would succeed), and nothing written through it (each output name that
# is a link is replaced by report's own file; the victim keeps its bytes and its mode).
# An strace of report shows one syscall naming a path inside the session: the first open.
. "$(dirname "$0")/lib/common.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP session files planted as symlinks need root and setpriv (a second user)"
	exit 0
fi
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
T20="timeout 20"
chmod 755 "$SCRATCH"
W=$SCRATCH/w
mkdir "$W" && chown 65534:65534 "$W"
(cd "$W" && "${NOBODY[@]}" "$UPROF" collect -o "$W" "$TGT/tasks" >/dev/null 2>&1)
S=$(session_in "$W")
if [ -z "$S" ] || ! grep -qx "status = complete" "$S/session.ini" 2>/dev/null; then
	ok "# SKIP uid 65534 could not collect here (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"
	exit 0
fi
check_sh "the session is the other user's" '[ "$(stat -c %u "$S")" = 65534 ] && [ -d "$S/instrument" ]'

# The victim: a root-only directory holding valid copies of the session's files.
V=$SCRATCH/victim
mkdir -m 700 "$V"
cp -r "$S/session.ini" "$S/samples.data" "$S/instrument" "$V/"
mkdir -m 700 "$V/omp"
echo "root's own bytes" >"$V/keep"
chmod 600 "$V/session.ini" "$V/samples.data" "$V/keep"
victim_sum() { (cd "$V" && find . -printf '%p %m %s %T@\n' | sort && cat keep) | md5sum; }
BEFORE=$(victim_sum)

# fresh NAME: a copy of the session, owned by the other user, as they would leave it
fresh() {
	D=$W/$1; rm -rf "$D"; cp -a "$S" "$D"; chown -R 65534:65534 "$D"
	rm -f "$D/report.csv"
}
plant() { # plant FILE TARGET: the other user swaps FILE for a link
	rm -rf "$1"; "${NOBODY[@]}" ln -s "$2" "$1"
}

# ---- 1. inputs: refused by name, nothing read through them ----
"$UPROF" report -i "$S" >/dev/null 2>&1
task_records() { sed -n 's/^Task Records:,"\([0-9]*\)"$/\1/p' "$1"; }
check_sh "the untouched session reports, its tasks with it" '[ "$(task_records "$S/report.csv")" -gt 0 ]'
rm -f "$S/report.csv"
for f in session.ini samples.data; do
	fresh "in-$f"; plant "$D/$f" "$V/$f"
	expect_fail 1 "$f a symlink to a root-only copy: refused, named" \
		"^uprof report: $D/$f is a symbolic link, not followed in a session directory$" \
		$T20 "$UPROF" report -i "$D"
	check "$f a symlink: no report.csv written" [ ! -e "$D/report.csv" ]
done
fresh in-tasks; plant "$D/instrument" "$V/instrument"
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "instrument/ a symlink to a root-only copy: skipped with one warning naming it" \
	'[ $rc = 0 ] && grep -qx "warning: instrument/ is a symbolic link, not followed; no tasks are reported" "$SCRATCH/err"'
check_sh "instrument/ a symlink: no task read through it" \
	'[ "$(task_records "$D/report.csv")" = 0 ]'
fresh in-omp; plant "$D/openmp" "$V/omp"
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "openmp/ a symlink: not followed, said on the terminal and in report.csv" \
	'[ $rc = 0 ] && grep -q "warning: openmp/ a symbolic link where the session.s directory belongs: not followed" "$SCRATCH/err" && grep -q "^OpenMP File Not Read:,\"openmp/ a symbolic link" "$D/report.csv"'
fresh in-tr; plant "$D/translated.bin" "$V/keep"
$T20 "$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"
check_sh "translated.bin a symlink: not used, said" \
	'grep -q "translated.bin is unusable (a symbolic link, not a file translate wrote)" "$SCRATCH/err"'

# ---- 2. outputs: a link in place of each is replaced, never written through ----
fresh out; for f in report.csv stacks.folded flamegraph.svg trace.json; do plant "$D/$f" "$V/keep"; done
$T20 "$UPROF" report -i "$D" --export all >/dev/null 2>"$SCRATCH/err"
rc=$?
check_sh "report.csv and the exports planted as links: report succeeds" '[ $rc = 0 ]'
for f in report.csv stacks.folded flamegraph.svg trace.json; do
	check_sh "$f: a regular file of root's, 0600, in place of the link" \
		'[ ! -L "$D/$f" ] && [ -f "$D/$f" ] && [ "$(stat -c %a:%u "$D/$f")" = 600:0 ] && [ -s "$D/$f" ]'
done
fresh trout; plant "$D/translated.bin" "$V/keep"
$T20 "$UPROF" translate -i "$D" --retranslate >/dev/null 2>&1
check_sh "translate: translated.bin planted as a link is replaced by its own file" \
	'[ ! -L "$D/translated.bin" ] && [ "$(stat -c %a "$D/translated.bin")" = 600 ]'
fresh cmp; plant "$D/cmp.csv" "$V/keep"
$T20 "$UPROF" compare "$S" "$D" -o "$D/cmp.csv" >/dev/null 2>&1
check_sh "compare -o: a link at the name is replaced, not written through" \
	'[ ! -L "$D/cmp.csv" ] && [ -s "$D/cmp.csv" ]'
fresh expdir; mkdir "$W/exp" && chown 65534 "$W/exp"; plant "$W/exp/stacks.folded" "$V/keep"
$T20 "$UPROF" report -i "$D" --export folded --export-dir "$W/exp" >/dev/null 2>&1
check_sh "--export-dir: a link at the export name is replaced" \
	'[ ! -L "$W/exp/stacks.folded" ] && [ -s "$W/exp/stacks.folded" ]'
check "the victim directory: nothing added, nothing changed, no mode changed" \
	[ "$(victim_sum)" = "$BEFORE" ]

# ---- 3. strace: after the one open of the session directory, nothing names a path in it ----
if command -v strace >/dev/null; then
	fresh st
	strace -f -qq -e trace=%file,openat2 -o "$SCRATCH/trace" \
		"$UPROF" report -i "$D" --export all >/dev/null 2>&1
	# each syscall's path argument (its first quoted string), where it is in the session
	named=$(sed -nE 's/^[0-9]+ +[a-z0-9_]+\([^"]*"([^"]*)".*/\1 &/p' "$SCRATCH/trace" |
		grep -F "$D" | grep -v ' execve(' | awk -v d="$D" 'index($1, d) == 1' | cut -d' ' -f2-)
	check_sh "strace: the session is named once, by the open of its directory" \
		'[ "$(printf "%s\n" "$named" | grep -c .)" = 1 ] && printf "%s\n" "$named" | grep -q "O_DIRECTORY"'
	check_sh "strace: its files are opened beneath that fd (openat2, no symlink followed)" \
		'grep -q "openat2([0-9]*, \"samples.data\", .*RESOLVE_NO_SYMLINKS" "$SCRATCH/trace" &&
		 grep -q "renameat([0-9]*, \"report.csv.tmp.[0-9.]*\", [0-9]*, \"report.csv\")" "$SCRATCH/trace"'
	if [ "$(printf "%s\n" "$named" | grep -c .)" != 1 ]; then
		printf '# %s\n' "$named" | head -20
	fi
else
	ok "# SKIP strace is not installed"
fi
