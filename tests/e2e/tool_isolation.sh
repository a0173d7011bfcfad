#!/usr/bin/env bash
# A tool cannot hurt the base report or outlive its run (lib/tool's supervisor and sandbox):
# tests/tool/hostile.c's tools crash in their entry point, escape with setsid() and a
# grandchild, leak 4 GiB, spin, and attack the session's files. Each time report.csv is the
# run without the tool line for line (then the tool's note or section), the session's
# files are as collect wrote them, the tool is named, and no process of it is left (each
# run's knob marker=<text> is in the command line of every process it could leave).
source "$(dirname "$0")/lib/common.sh"

H=$TGT/tools
M=iso$$
KNOBS=
"$UPROF" collect -o "$SCRATCH/s" "$TGT/demo" >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
"$UPROF" report -i "$S" >/dev/null 2>&1
cp "$S/report.csv" "$SCRATCH/base.csv"
NBASE=$(wc -l <"$SCRATCH/base.csv")
sums() { (cd "$S" && sha256sum samples.data session.ini pauses.csv && ls -A); }
sums >"$SCRATCH/sums"

# run KIND [report args...]: report with tool hostile-KIND (and knobs ",k=v" in $KNOBS);
# rc, stderr in $SCRATCH/err
run() {
	local kind=$1
	shift
	"$UPROF" report -i "$S" "$@" --tool "$H/hostile-$kind.so,marker=$M-$kind$KNOBS" \
		>/dev/null 2>"$SCRATCH/err"
	rc=$?
}
# what report.csv has past the base report (compared line for line, Report Command aside)
added() { tail -n +$((NBASE + 1)) "$S/report.csv"; }
base_intact() {
	diff <(grep -v '^Report Command' "$SCRATCH/base.csv") \
		<(head -n "$NBASE" "$S/report.csv" | grep -v '^Report Command') >/dev/null &&
		diff <(sums) "$SCRATCH/sums" >/dev/null
}
# no process with this run's marker in its command line (report's own forks included)
none_left() { ! pgrep -f "$M-$1" >/dev/null; }
said() { grep '^uprof report: ' "$SCRATCH/err"; }

# --- a SIGSEGV in the entry point: the base report is made all the same
run entrysegv
err=$(said)
check "entry-point crash: exit 1, one line naming the tool ($err)" \
	bash -c "[ $rc = 1 ] && [ \$(grep -c '^uprof report: ' '$SCRATCH/err') = 1 ] && grep -qE '^uprof report: tool .*hostile-entrysegv.so: crashed \(Segmentation fault\)' '$SCRATCH/err'"
check "entry-point crash: report.csv is the base report, the session untouched" base_intact
check_sh "entry-point crash: report.csv notes the tool's failure after the base report" \
	'[ "$(added)" = "$(printf "\nNote:,\"%s\"" "${err#uprof report: }")" ]'
check "entry-point crash: no process of it left" none_left entrysegv

# --- setsid() and a grandchild that ignores SIGTERM/SIGHUP: ended with the tool
run escape
check "escape: exit 0, its section kept ($(added | tr '\n' ' '))" \
	bash -c "[ $rc = 0 ] && grep -qx '\"ESCAPED (Tool - hostile-escape)\"' '$S/report.csv'"
check "escape: said that it left a process and that it was ended ($(said))" \
	grep -qx "uprof report: warning: tool 'hostile-escape' left 1 process running: ended" "$SCRATCH/err"
check "escape: the base report and the session intact" base_intact
check "escape: the grandchild in its own session is gone (no 'escapee-$M-escape')" none_left escape

# ... and when report itself is killed while the tool runs: its supervisor still ends it all
"$UPROF" report -i "$S" --tool "$H/hostile-escape.so,hang=1,marker=$M-killed" >/dev/null 2>&1 &
rpid=$!
for _ in $(seq 200); do pgrep -f "escapee-$M-killed" >/dev/null && break; sleep 0.1; done
check_sh "report killed: the escaped grandchild was running first" \
	'pgrep -f "escapee-$M-killed" >/dev/null' # (here: a bash -c would match itself)
kill -KILL $rpid
wait $rpid 2>/dev/null
for _ in $(seq 100); do pgrep -f "$M-killed" >/dev/null || break; sleep 0.1; done
check "report killed: no process of the tool left, its grandchild included" none_left killed
check "report killed: its run directory removed, the session as it was" diff <(sums) "$SCRATCH/sums"

# --- a 4 GiB leak (malloc + memset, 64 MiB at a time): stopped at the memory limit
run leak
err=$(said)
mib=$(sed -nE 's/.*near its memory limit \(([0-9]+) MiB resident, 1024 MiB allowed.*/\1/p' "$SCRATCH/err")
# (a NULL from malloc and the tool's memset crash; a sanitizer build's malloc exits instead)
check "leak: exit 1, one line naming the tool and its memory limit ($err)" \
	bash -c "[ $rc = 1 ] && [ \$(grep -c '^uprof report: ' '$SCRATCH/err') = 1 ] && grep -qE '^uprof report: tool .*hostile-leak.so: (crashed \(Segmentation fault\)|exited \(status 1\) before it was done) near its memory limit' '$SCRATCH/err'"
check "leak: it never got the 4 GiB (${mib:-?} MiB resident at most, default limit 1024 MiB)" \
	test "${mib:-99999}" -ge 512 -a "${mib:-99999}" -lt 2048
check_sh "leak: report.csv is the base report and the note, the session untouched" \
	'base_intact && [ "$(added)" = "$(printf "\nNote:,\"%s\"" "${err#uprof report: }")" ]'
check "leak: no process of it left" none_left leak
KNOBS=,mb=200 run leak --tool-memory 64
check "--tool-memory 64: a tool taking 200 MiB crashes (exit $rc)" \
	bash -c "[ $rc = 1 ] && grep -qE 'hostile-leak.so: (crashed|exited \(status 1\))' '$SCRATCH/err'"
KNOBS=,mb=200 run leak --tool-memory 512
check "--tool-memory 512: the same tool runs (exit $rc, $(added | tail -1) MiB taken)" \
	test "$rc" = 0 -a "$(added | tail -1)" = 256

# --- a busy loop in the entry point: stopped at its CPU limit, long before the time limit
run spin --tool-cpu 1 --tool-timeout 600
check "spin: exit 1, one line naming the tool and its CPU limit ($(said))" \
	bash -c "[ $rc = 1 ] && grep -qE '^uprof report: tool .*hostile-spin.so: crashed \(CPU time limit exceeded\) at its CPU limit \(1 s of CPU; --tool-cpu raises it\)' '$SCRATCH/err'"
check "spin: the base report and the session intact" base_intact
check "spin: no process of it left" none_left spin

# ... collect loads a tool under the same limits: it ends before the program runs
expect_fail 1 "collect --tool-cpu 1: a tool spinning in its entry point is stopped" \
	"tool .*hostile-spin.so: crashed \(CPU time limit exceeded\) at its CPU limit \(1 s of CPU" \
	"$UPROF" collect --tool-cpu 1 --tool "$H/hostile-spin.so,marker=$M-cspin" -o "$SCRATCH/never" "$TGT/demo"
check_sh "... and leaves no session and no process behind" \
	'[ -z "$(ls -A "$SCRATCH/never" 2>/dev/null)" ] && none_left cspin'

# --- attacks on the session's files, /tmp and its parent
run tamper
if grep -q "ran without Landlock" "$SCRATCH/err"; then
	ok "tamper: every attempt refused # SKIP this kernel has no Landlock ($(said))"
else
	printf '%s\n' '' '"TAMPERING (Tool - hostile-tamper)"' 'ATTEMPT,RESULT' \
		'"open report.csv for writing","EACCES"' '"truncate report.csv","EACCES"' \
		'"open session.ini for writing","EACCES"' '"unlink samples.data","EACCES"' \
		'"rename samples.data","EACCES"' '"create a file in the session","EACCES"' \
		'"create a file in /tmp","EACCES"' \
		'"write through an inherited session fd","none writable"' \
		'"kill its parent","EPERM"' >"$SCRATCH/want"
	check "tamper: every attempt refused, its section says so ($(added | tail -n +4 | cut -d, -f2 | tr '\n' ' '))" \
		diff "$SCRATCH/want" <(added)
	check "tamper: nothing planted in the session or /tmp" \
		test ! -e "$S/planted" -a ! -e "/tmp/hostile-tamper-$M-tamper"
fi
check_sh "tamper: exit 0, the base report and the session intact" '[ $rc = 0 ] && base_intact'
check "tamper: its (empty) directory is not kept, no run directory left" test ! -e "$S/tools"
check "tamper: no process of it left" none_left tamper

# --- the limits' knobs: bad values are usage errors
expect_fail 2 "--tool-memory 0 is refused" "--tool-memory '0': give MiB, 16 or more" \
	"$UPROF" report -i "$S" --tool-memory 0 --tool "$H/noop.so"
expect_fail 2 "--tool-cpu x is refused" "--tool-cpu 'x': give seconds of CPU time, 1 or more" \
	"$UPROF" report -i "$S" --tool-cpu x --tool "$H/noop.so"
rm -f "/tmp/hostile-tamper-$M-tamper"

echo "1..$_n"
