#!/usr/bin/env bash
# The control page ABI grows (lib/instrument/ctlpage.h): tests/targets/tasks.c linked
# statically against the library built as ABI 2.0 (what every library before minors
# wrote) is read in full; built as 3.0 (a major this uprof does not read) it is refused
# with one warning on stderr naming its pid, and the run goes on without its tasks.
# Counts only: nothing here depends on how fast the machine is.
. "$(dirname "$0")/lib/common.sh"

# task SESSION DOMAIN NAME: "count<TAB>elapsed" of a row of the hottest-tasks section
task() {
	csvq "$1/report.csv" "TASKS (Sort Event" |
		awk -F'\t' -v d="$2" -v n="$3" '$1==d && $2==n {print $3"\t"$4; exit}'
}

echo "# instrument_abi: pages of an older minor and of a newer major version"

# --- 2.0: an older minor, accepted
"$UPROF" collect -o "$SCRATCH/v20" "$TGT/tasks_abi_2_0" >"$SCRATCH/out20" 2>"$SCRATCH/err20"
rc=$?
S=$(session_in "$SCRATCH/v20")
check "2.0: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "2.0: no word about the control page" bash -c "! grep -qi 'control page' '$SCRATCH/err20' '$SCRATCH/out20'"
check "2.0: task records of the parent and the forked child" \
	bash -c "[ \$(ls '$S/instrument' | grep -c '\.tasks$') -eq 2 ]"
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
check "2.0: DomA/Twice counted twice ($(task "$S" DomA Twice | cut -f1))" \
	[ "$(task "$S" DomA Twice | cut -f1)" = 2 ]
check "2.0: DomB/Threaded: two threads and the child ($(task "$S" DomB Threaded | cut -f1))" \
	[ "$(task "$S" DomB Threaded | cut -f1)" = 3 ]
check "2.0: User/Unended: one instance of 0 s ($(task "$S" User Unended))" \
	[ "$(task "$S" User Unended)" = "1	0.0000" ]
check "2.0: the task spanning a pause and the one ended while paused are dropped" \
	[ -z "$(task "$S" DomB Spanning)$(task "$S" DomB PausedEnd)$(task "$S" DomB Never)" ]

# --- 3.0: a newer major, refused with a warning naming the pid
"$UPROF" collect -o "$SCRATCH/v30" "$TGT/tasks_abi_3_0" >"$SCRATCH/out30" 2>"$SCRATCH/err30"
rc=$?
S=$(session_in "$SCRATCH/v30")
pid=$(sed -n 's/^pids = \([0-9]*\).*/\1/p' "$S/session.ini")
check "3.0: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "3.0: one warning naming the target's pid $pid" \
	bash -c "[ \$(grep -c '^uprof collect: warning: pid $pid.s control page is version 3\.0, this uprof reads 2\.x' '$SCRATCH/err30') -eq 1 ]"
check "3.0: one line per page: the target and its forked child ($(grep -c 'control page' "$SCRATCH/err30"))" \
	[ "$(grep -c 'control page is version 3\.0' "$SCRATCH/err30")" -eq 2 ]
# pages of version 3.0 only come from this file's target (its child ends with _exit, so
# its own exit handler never removes it)
left=$(for f in /dev/shm/uprof.*; do
	[ -e "$f" ] && [ "$(od -An -tx4 -j8 -N4 "$f" | tr -d ' ')" = 00000003 ] &&
		! kill -0 "${f##*.}" 2>/dev/null && echo "${f##*.}"; done)
check "3.0: the pages of ended processes are removed, read or not ($left)" [ -z "$left" ]
check "3.0: nothing about it on stdout" bash -c "! grep -qi 'control page' '$SCRATCH/out30'"
check "3.0: no task records taken" bash -c "[ ! -d '$S/instrument' ] || [ -z \"\$(ls '$S/instrument')\" ]"
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
rc=$?
check "3.0: report exits 0 ($rc)" [ "$rc" -eq 0 ]
check "3.0: the samples are still reported (spin is a hot function)" \
	bash -c "grep -q '^\"spin\",' '$S/report.csv'"
check "3.0: no hottest-tasks section" bash -c "! grep -q 'HOTTEST TASKS' '$S/report.csv'"
echo "# instrument_abi: done"
