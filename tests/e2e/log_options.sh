#!/usr/bin/env bash
# uProf's log options (--log-path DIR, --enable-log, --enable-logts) on collect, report and
# translate: the log is uprof's own standard error, line for line, after the command line
# (stamped with --enable-logts), appended run after run; the program's own messages are not
# in it; a log file that is a link, another user's file or a hard link is never written.
. "$(dirname "$0")/lib/common.sh"

D=$SCRATCH/logs
mkdir -p "$D"
LOG=$D/$(id -un)-uprof.log
# a program that writes to its own stderr and stdout
PROG=(/bin/sh -c 'echo program-out; echo program-err >&2; '"$TGT"'/spin_ms 30')

"$UPROF" collect --log-path "$D" -o "$SCRATCH/a" "${PROG[@]}" >"$SCRATCH/a.out" 2>"$SCRATCH/a.err"
check "collect --log-path: exit 0, the log made 0600" \
	bash -c "[ \"\$(stat -c %a '$LOG')\" = 600 ]"
check "its first line is the command" \
	bash -c "head -1 '$LOG' | grep -qx 'uprof collect --log-path $D -o $SCRATCH/a /bin/sh -c .*'"
grep -v program-err "$SCRATCH/a.err" >"$SCRATCH/a.uprof"
check "the rest is uprof's stderr, line for line ($(wc -l <"$SCRATCH/a.uprof") lines)" \
	bash -c "[ -s '$SCRATCH/a.uprof' ] && tail -n +2 '$LOG' | cmp -s - '$SCRATCH/a.uprof'"
check "the program's stderr reached the terminal, not the log" \
	bash -c "grep -qx program-err '$SCRATCH/a.err' && ! tail -n +2 '$LOG' | grep -q program-err"
check "the program's stdout is its own" bash -c "[ \"\$(cat '$SCRATCH/a.out')\" = program-out ]"

# report, appended to the same log, each line stamped
n0=$(wc -l <"$LOG")
S=$(session_in "$SCRATCH/a")
"$UPROF" report --log-path "$D" --enable-logts -i "$S" >/dev/null 2>"$SCRATCH/r.err"
check "report --enable-logts: appended ($n0 lines before, $(wc -l <"$LOG") after)" \
	[ "$(wc -l <"$LOG")" -eq $((n0 + 1 + $(wc -l <"$SCRATCH/r.err"))) ]
tail -n +$((n0 + 1)) "$LOG" >"$SCRATCH/r.log"
check "every appended line starts with its date and time" \
	bash -c "! grep -vqE '^\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\] ' '$SCRATCH/r.log'"
check "without the stamps, report's lines are its stderr's" \
	bash -c "sed -E 's/^\[[^]]*\] //' '$SCRATCH/r.log' | tail -n +2 | cmp -s - '$SCRATCH/r.err'"

# --enable-log: $UPROF_LOGDIR; translate takes it too
mkdir -p "$SCRATCH/env"
UPROF_LOGDIR=$SCRATCH/env "$UPROF" translate --enable-log -i "$S" >/dev/null 2>"$SCRATCH/t.err"
check "translate --enable-log writes \$UPROF_LOGDIR/\$USER-uprof.log" \
	bash -c "head -1 '$SCRATCH/env/$(id -un)-uprof.log' | grep -q '^uprof translate --enable-log -i '"

# files not ours to write: a symbolic link, another user's file, a hard link
for kind in symlink foreign hardlink; do
	E=$SCRATCH/$kind; mkdir -p "$E"; L=$E/$(id -un)-uprof.log
	echo keep >"$E/target"
	case $kind in
	symlink) ln -s "$E/target" "$L" ;;
	foreign) echo theirs >"$L"; chown nobody "$L" 2>/dev/null || { ok "# SKIP foreign: chown needs root"; continue; } ;;
	hardlink) ln "$E/target" "$L" ;;
	esac
	expect_fail 2 "a log that is a $kind is refused" "is not a regular file of this user's with one link" \
		"$UPROF" collect --log-path "$E" -o "$SCRATCH/x$kind" "$TGT/spin_ms" 10
	check "the $kind's file is unchanged, no session made" \
		bash -c "[ \"\$(cat '$E/target')\" = keep ] && ! ls -d '$SCRATCH/x$kind'/uprof-* 2>/dev/null"
done
expect_fail 2 "a --log-path that is no directory" "cannot open the log $SCRATCH/nowhere/" \
	"$UPROF" collect --log-path "$SCRATCH/nowhere" -o "$SCRATCH/y" "$TGT/spin_ms" 10
echo "1..$_n"
