#!/usr/bin/env bash
# Issue 27: control pages no other user can squat or leave behind, and no instrumented
# process lost unsaid (docs/DESIGN.md §5):
#  1. `ulimit -n 32` (soft and hard: collect cannot raise it) and 200 instrumented children
#     forked at once: every child's tasks are in the session with their exact counts (a page
#     with no descriptor for its files waits mapped while the files of ended processes are
#     closed), [pages] says 200 handed over and none lost, report says nothing is missing;
#     the same with named pages (the fallback) and 60 children alive at once.
#  2. (root) uid 65534 makes files named after the next 300 pids before a run of 20
#     instrumented children: their pages come over collect's channel, with no name, so all
#     20 are kept with their exact counts, and [pages] squatted = 0.
#  3. 150 stale pages of our uid: 145 files named after pids no process has and 5 pages of
#     instrumented processes SIGKILLed while collect was gone: one `collect /bin/true`
#     removes every one (stale_removed counts them), and a page older than the process
#     that has its pid now (a reused pid); the run works; a page of a live process of
#     ours, and another user's file, are left alone.
# The known answers come from the programs' arguments (children.c), never from a run.
# run-alone: it squats the pids the next forks get (ns_last_pid)
. "$(dirname "$0")/lib/common.sh"
own_dev_shm "$0" "$@"

echo "# page_channel: pages handed over, not named; descriptors short; stale pages removed"

# children N 3: child i records 3 + i % 3 DomK/Kid and one DomK/Kid<i % 7>
want_kid() { "$PYTHON" -c "print(sum(3 + i % 3 for i in range($1)))"; }
ini() { sed -n "/^\[pages\]/,/^\[/s/^$2 = //p" "$1/session.ini"; }
kid_total() { csvq "$1/report.csv" "ALL TASKS (Sort Event" | awk -F'\t' '$1=="DomK" && $2=="Kid"{print $3}'; }
kid_rows() { csvq "$1/report.csv" "ALL TASKS (Sort Event" | awk -F'\t' '$1=="DomK"{print $2"\t"$3}'; }

# ---- 1. 32 descriptors, 200 children ----
N=200
(ulimit -n 32 && exec "$UPROF" collect -o "$SCRATCH/c" "$TGT/children" $N 3) >/dev/null 2>"$SCRATCH/c.err"
check "nofile: collect exits 0 under ulimit -n 32 ($(tail -1 "$SCRATCH/c.err"))" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/c")
files=$(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$')
check "nofile: one tasks file per child ($files of $N)" [ "$files" -eq $N ]
check "nofile: [pages] handed = $N ($(ini "$S" handed)), named = 0 ($(ini "$S" named))" \
	bash -c "[ '$(ini "$S" handed)' = $N ] && [ '$(ini "$S" named)' = 0 ]"
check "nofile: [pages] not_followed = 0 ($(ini "$S" not_followed)), lost_task_records = 0" \
	bash -c "[ '$(ini "$S" not_followed)' = 0 ] && grep -q '^lost_task_records = 0$' '$S/session.ini'"
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>"$SCRATCH/c.rerr"
check "nofile: report exits 0" [ $? -eq 0 ]
check "nofile: report says nothing is missing ($(grep -iE 'not read|task' "$SCRATCH/c.rerr" | head -1))" \
	bash -c "! grep -qiE 'not read|task' '$SCRATCH/c.rerr'"
kid_rows "$S" >"$SCRATCH/c.rows"
got=$(awk -F'\t' '$1=="Kid"{print $2}' "$SCRATCH/c.rows")
check "nofile: DomK/Kid counts every child's instances (${got:-none}, want $(want_kid $N))" \
	[ "${got:-0}" = "$(want_kid $N)" ]
for j in 0 3 6; do
	want=$("$PYTHON" -c "print(sum(1 for i in range($N) if i % 7 == $j))")
	got=$(awk -F'\t' -v n="Kid$j" '$1==n{print $2}' "$SCRATCH/c.rows")
	check "nofile: DomK/Kid$j, one per child i with i % 7 = $j (${got:-none}, want $want)" [ "${got:-0}" = "$want" ]
done
# the named fallback (page_attack names its pages) with 60 children alive at once, each
# spinning 1 s: pages that could not even be opened wait too; all 61 read, none left
: >"$SCRATCH/go"
(ulimit -n 32 && exec "$UPROF" collect -o "$SCRATCH/n" "$TGT/page_attack" squat "$SCRATCH/go" 60) \
	>"$SCRATCH/n.out" 2>"$SCRATCH/n.err"
check "nofile, named: collect exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/n")
kids=$(grep -c '^child ' "$SCRATCH/n.out")
files=$(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$')
check "nofile, named: the target and its $kids children have their tasks files ($files of 61)" \
	bash -c "[ $kids -eq 60 ] && [ $files -eq 61 ] && [ '$(ini "$S" named)' = 61 ] && [ '$(ini "$S" not_followed)' = 0 ]"
left=0
for f in "$S"/instrument/*.tasks; do [ -e "/dev/shm/uprof.$(basename "$f" .tasks)" ] && left=$((left + 1)); done
check "nofile, named: none of their pages is left in /dev/shm ($left)" [ "$left" -eq 0 ]
# the target got the limit it was given, not collect's: a child reads its own
(ulimit -n 32 && exec "$UPROF" collect -o "$SCRATCH/l" sh -c 'ulimit -n; ulimit -Hn' >"$SCRATCH/l.out" 2>/dev/null)
check "nofile: the target runs with the limits it was given ($(echo $(cat "$SCRATCH/l.out")))" \
	[ "$(echo $(cat "$SCRATCH/l.out"))" = "32 32" ]

# ---- 2. squatted names do not matter: the pages have none ----
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ ! -r /proc/sys/kernel/ns_last_pid ]; then
	ok "# SKIP squatted names need root and setpriv (an attacker and a victim user)"
else
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	M=20
	read -r last </proc/sys/kernel/ns_last_pid
	# builtins only: the squatter forks nothing beyond itself
	"${NOBODY[@]}" bash -c 'for ((p = $1 + 1; p <= $1 + 300; p++)); do : >"/dev/shm/uprof.$p"; done' \
		bash "$last"
	nsq=$(find /dev/shm -maxdepth 1 -name 'uprof.*' -user 65534 | wc -l)
	"$UPROF" collect -o "$SCRATCH/q" "$TGT/children" $M 3 >/dev/null 2>"$SCRATCH/q.err"
	check "squat: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/q")
	hit=0
	for f in "$S"/instrument/*.tasks; do
		p=$(basename "$f" .tasks)
		[ "$p" -gt "$last" ] && [ "$p" -le $((last + 300)) ] && hit=$((hit + 1))
	done
	echo "# squat: $nsq names squatted by uid 65534 (pids $((last + 1))..$((last + 300))); $hit children got one"
	files=$(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$')
	check "squat: one tasks file per child ($files of $M)" [ "$files" -eq $M ]
	check "squat: [pages] handed = $M, squatted = 0, refused = 0 ($(ini "$S" handed), $(ini "$S" squatted), $(ini "$S" refused))" \
		bash -c "[ '$(ini "$S" handed)' = $M ] && [ '$(ini "$S" squatted)' = 0 ] && [ '$(ini "$S" refused)' = 0 ]"
	"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>"$SCRATCH/q.rerr"
	got=$(kid_rows "$S" | awk -F'\t' '$1=="Kid"{print $2}')
	check "squat: DomK/Kid counts every child's instances (${got:-none}, want $(want_kid $M))" \
		[ "${got:-0}" = "$(want_kid $M)" ]
	check "squat: no warning about pages (collect or report)" \
		bash -c "! grep -qiE 'control page|not read|instrumented' '$SCRATCH/q.err' '$SCRATCH/q.rerr'"
	if [ "$hit" -eq 0 ]; then
		ok "# SKIP no child got a squatted pid (300 pids went to other processes first)"
	fi
	find /dev/shm -maxdepth 1 -name 'uprof.*' -user 65534 -delete
fi

# ---- 3. stale pages of dead processes ----
# 145 names of pids no process has: from the top of the pid range down
stale=()
for ((p = $(cat /proc/sys/kernel/pid_max) - 1; p > 1000 && ${#stale[@]} < 145; p--)); do
	[ -e "/proc/$p" ] || [ -e "/dev/shm/uprof.$p" ] || stale+=("$p")
done
for p in "${stale[@]}"; do : >"/dev/shm/uprof.$p"; done
# 5 pages of instrumented processes SIGKILLed with no collect around (their library made a
# named page: AMDUPROF_INSTRUMENT_ENABLE=1, the attach mode's)
killed=()
for i in 1 2 3 4 5; do
	AMDUPROF_INSTRUMENT_ENABLE=1 "$TGT/kill_target" - "$SCRATCH/never" 60 >/dev/null 2>&1 &
	killed+=($!)
done
for p in "${killed[@]}"; do
	t=0
	while [ $t -lt 500 ] && [ ! -s "/dev/shm/uprof.$p" ]; do sleep 0.01; t=$((t + 1)); done
done
made=0
for p in "${killed[@]}"; do [ -s "/dev/shm/uprof.$p" ] && made=$((made + 1)); done
kill -KILL "${killed[@]}" 2>/dev/null
wait "${killed[@]}" 2>/dev/null
# a live process's page, ours, and another user's file named after a dead pid: both stay
sleep 30 &
live=$!
: >"/dev/shm/uprof.$live"
other=${stale[0]}
unset 'stale[0]'
chown 65534 "/dev/shm/uprof.$other"
# a reused pid: a page made before the process that has its pid now started
# (root: ns_last_pid set just before the fork, so that it gets the pid of the file)
reused=0
want=$((${stale[-1]} - 10)) # below every stale one
if [ -w /proc/sys/kernel/ns_last_pid ] && [ ! -e "/proc/$want" ] && [ ! -e "/dev/shm/uprof.$want" ]; then
	: >"/dev/shm/uprof.$want"
	read -r -t 0.2 _ </dev/zero # a builtin wait
	echo $((want - 1)) >/proc/sys/kernel/ns_last_pid
	sleep 30 &
	reused=$!
fi
if [ "$reused" -eq "$want" ]; then
	made=$((made + 1))
	killed+=("$reused")
else
	rm -f "/dev/shm/uprof.$want"
	ok "# SKIP no reused pid (not root, or another process took the pid first)"
fi
before=$(ls /dev/shm | grep -c '^uprof\.')
echo "# stale: ${#stale[@]} names of no process, $made pages of killed processes (5) and a reused pid (1), $before page files in all"
"$UPROF" collect -o "$SCRATCH/t" /bin/true >/dev/null 2>"$SCRATCH/t.err"
check "stale: collect /bin/true exits 0 ($(tail -1 "$SCRATCH/t.err"))" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/t")
want=$((${#stale[@]} + made))
check "stale: [pages] stale_removed = $want ($(ini "$S" stale_removed))" [ "$(ini "$S" stale_removed)" = "$want" ]
left=0
for p in "${stale[@]}" "${killed[@]}"; do [ -e "/dev/shm/uprof.$p" ] && left=$((left + 1)); done
check "stale: none of them is left ($left)" [ "$left" -eq 0 ]
check "stale: the live process's page is left" [ -e "/dev/shm/uprof.$live" ]
check "stale: another user's file is left" [ -e "/dev/shm/uprof.$other" ]
check "stale: the run works (status complete)" grep -q '^status = complete' "$S/session.ini"
kill "$live" "$reused" 2>/dev/null
rm -f "/dev/shm/uprof.$live" "/dev/shm/uprof.$other"
echo "# page_channel: done"
