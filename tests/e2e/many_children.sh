#!/usr/bin/env bash
# Issue 12, item 4: 1000 instrumented children forked at once, each recording a few tasks
# and exiting at once, are all in the session with their exact task counts. On 2 loaded
# CPUs collect found some pages more than the library's 1 s exit wait after they were
# made, and those children removed their pages unread: their tasks were lost, unsaid. A
# child now leaves its page to a running uprof, which reads it after the child is gone.
. "$(dirname "$0")/lib/common.sh"

N=1000
# children N 3: child i records 3 + i % 3 DomK/Kid and one DomK/Kid<i % 7>
kid=$("$PYTHON" -c "print(sum(3 + i % 3 for i in range($N)))")
"$UPROF" collect -o "$SCRATCH/c" "$TGT/children" $N 3 >/dev/null 2>"$SCRATCH/err"
check "collect exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/c")
# (samples the kernel could not fit in its ring on a loaded box are another matter: a
# warning of theirs may come, and says nothing about tasks)
W='warning: .*(control page|task|instrumented|pause)'
check "no warning about a page, a task or a process ($(grep -iE "$W" "$SCRATCH/err" | head -3))" \
	bash -c "! grep -qiE '$W' '$SCRATCH/err'"
files=$(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$')
check "one tasks file per child ($files of $N)" [ "$files" -eq $N ]
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>"$SCRATCH/rerr"
check "report exits 0" [ $? -eq 0 ]
check "report says no task record was dropped ($(grep -i task "$SCRATCH/rerr" | head -1))" \
	bash -c "! grep -qi task '$SCRATCH/rerr'"
rows() { csvq "$S/report.csv" "ALL TASKS (Sort Event" | awk -F'\t' '$1=="DomK"{print $2"\t"$3}'; }
rows >"$SCRATCH/rows"
got=$(awk -F'\t' '$1=="Kid"{print $2}' "$SCRATCH/rows")
check "DomK/Kid counts every child's instances (${got:-none}, want $kid)" [ "${got:-0}" = "$kid" ]
for j in 0 1 2 3 4 5 6; do
	want=$("$PYTHON" -c "print(sum(1 for i in range($N) if i % 7 == $j))")
	got=$(awk -F'\t' -v n="Kid$j" '$1==n{print $2}' "$SCRATCH/rows")
	check "DomK/Kid$j: one per child i with i % 7 = $j (${got:-none}, want $want)" [ "${got:-0}" = "$want" ]
done
# every child's page was removed: by the child, or by collect after reading it
left=0
for f in "$S"/instrument/*.tasks; do
	p=$(basename "$f" .tasks)
	[ -e "/dev/shm/uprof.$p" ] && left=$((left + 1))
done
check "no control page of the run is left in /dev/shm ($left)" [ "$left" -eq 0 ]
echo "# many_children: done"
