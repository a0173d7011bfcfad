#!/usr/bin/env bash
# Control pages a hostile process made or broke (issue 12, items 1, 2, 3, 6; docs/DESIGN.md §5),
# as root with an unprivileged user (uid 65534 through setpriv) as the attacker:
#  - a target truncating its own page while profiled (launched, and under -p as another
#    user): collect survives, exits 0, the session is complete, sampling is normal, one
#    warning;
#  - a page forged by another user under the name of root's busy process V, under -p V
#    and under -a: refused with one warning naming V; sampling goes on to the end (V has
#    samples in the last second) and pauses.csv does not name V;
#  - 100 empty page files of another user's processes (and 20 named after root's) made
#    during the run: every task of an instrumented target that starts after them is
#    reported;
#  - a pause stamped INT64_MAX: applied as made when read, so the resume after it ends it
#    (sampling goes on after it), and pauses.csv has exactly that interval;
#  - collect SIGKILLed under -p: the target's strict calls after it do not wait for it
#    (none of 50 pairs fails, the page is detached), and its page is gone at its exit.
# Facts of the order of events, never how fast the machine is. Every /dev/shm file made
# here is removed at the end.
# run-alone: collect -a takes every control page in /dev/shm (another test's too), and it
# squats the page names of pids
. "$(dirname "$0")/lib/common.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP hostile pages need root and setpriv (an unprivileged attacker user)"
	exit 0
fi
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
shm_made=()	# pids whose /dev/shm/uprof.<pid> this file made or caused
procs=()	# background processes to end
cleanup() {
	for p in "${procs[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${shm_made[@]}"; do rm -f "/dev/shm/uprof.$p"; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT
# The attacker runs the helper from a place every user can read.
ATTACK=$SCRATCH/bin/page_attack
mkdir -p "$SCRATCH/bin" && cp "$TGT/page_attack" "$ATTACK" && chmod 755 "$SCRATCH" "$SCRATCH/bin"

# wait_started ERRFILE PID: until collect says the profile started (or it is gone)
wait_started() {
	until grep -q '^Profiling started' "$1" 2>/dev/null || ! kill -0 "$2" 2>/dev/null; do
		sleep 0.01
	done
}
# kept SESSION FILTER-ARGS...: samples report keeps with these -p/--time-filter arguments
kept() {
	local S=$1; shift
	"$UPROF" report -i "$S" "$@" 2>&1 >/dev/null |
		sed -n 's/.*Filtered (-p\/--time-filter): \([0-9]*\) samples reported.*/\1/p'
}
complete() { grep -qx "status = complete" "$1/session.ini"; }
pid_of() { sed -n 's/^pids = \([0-9]*\).*/\1/p' "$1/session.ini"; }

echo "# hostile_pages: pages truncated, forged, left empty, stamped in the future"

# ---- 1. a launched target truncates its own page once collect reads it ----
"$UPROF" collect -o "$SCRATCH/s1" "$TGT/page_attack" shrink 1.5 >"$SCRATCH/out1" 2>"$SCRATCH/err1"
rc=$?
S=$(session_in "$SCRATCH/s1")
P=$(pid_of "$S")
shm_made+=("$P")
check "shrink: collect exits 0, no SIGBUS ($rc)" [ "$rc" -eq 0 ]
check "shrink: the target did truncate its page" grep -qx truncated "$SCRATCH/out1"
check "shrink: the session is complete" complete "$S"
check "shrink: one warning naming pid $P ($(grep -c 'control page' "$SCRATCH/err1"))" \
	bash -c "[ \$(grep -c 'control page' '$SCRATCH/err1') -eq 1 ] &&
		grep -q '^uprof collect: warning: pid $P.s control page was truncated while uprof read it' '$SCRATCH/err1'"
"$UPROF" report -i "$S" >/dev/null 2>&1
check "shrink: report reads the session" [ -s "$S/report.csv" ]
rate_checks "$S" 1 "shrink"
check "shrink: the ended process's page is removed" [ ! -e "/dev/shm/uprof.$P" ]

# ---- 2. the same under -p, the target another user's ----
"${NOBODY[@]}" env AMDUPROF_INSTRUMENT_ENABLE=1 "$ATTACK" shrink 1.5 >"$SCRATCH/out2" 2>&1 &
T=$!
procs+=("$T")
shm_made+=("$T")
"$UPROF" collect -p "$T" -d 30 -o "$SCRATCH/s2" >/dev/null 2>"$SCRATCH/err2"
rc=$?
wait "$T" 2>/dev/null
S=$(session_in "$SCRATCH/s2")
check "shrink -p (uid 65534's target): collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "shrink -p: the target did truncate its page" grep -qx truncated "$SCRATCH/out2"
check "shrink -p: the session is complete" complete "$S"
check "shrink -p: one warning naming pid $T" \
	bash -c "[ \$(grep -c 'control page' '$SCRATCH/err2') -eq 1 ] &&
		grep -q 'pid $T.s control page was truncated' '$SCRATCH/err2'"
n=$(kept "$S" -p "$T")
check "shrink -p: the target's spin is sampled ($n samples)" [ "${n:-0}" -gt 0 ]
check "shrink -p: the ended process's page is removed" [ ! -e "/dev/shm/uprof.$T" ]

# ---- 3. a page forged by uid 65534 under the name of root's busy process, -p ----
bash -c 'while :; do :; done' &
V=$!
procs+=("$V")
"${NOBODY[@]}" "$ATTACK" forge "$V"
shm_made+=("$V")
check "forge: uid 65534 made a page named after root's pid $V" \
	[ "$(stat -c %u "/dev/shm/uprof.$V" 2>/dev/null)" = 65534 ]
"$UPROF" collect -p "$V" -d 3 -o "$SCRATCH/s3" >/dev/null 2>"$SCRATCH/err3"
rc=$?
S=$(session_in "$SCRATCH/s3")
check "forge -p: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "forge -p: one warning: pid $V's page belongs to uid 65534, V runs as 0" \
	bash -c "[ \$(grep -c 'control page' '$SCRATCH/err3') -eq 1 ] &&
		grep -q '^uprof collect: warning: pid $V.s control page is not read: it belongs to uid 65534, the process runs as uid 0' '$SCRATCH/err3'"
check "forge -p: pauses.csv does not name $V" bash -c "! grep -q '^$V,' '$S/pauses.csv'"
first=$(kept "$S" --time-filter 0:1)
last=$(kept "$S" --time-filter 2:)
check "forge -p: sampling goes on to the end: samples in the last second ($last; first second $first)" \
	bash -c "[ ${last:-0} -gt 0 ] && [ $((${last:-0} * 4)) -ge ${first:-0} ]"

# ---- 4. the same under -a, the page forged while collect runs ----
rm -f "/dev/shm/uprof.$V"
"$UPROF" collect -a -d 3 -o "$SCRATCH/s4" >/dev/null 2>"$SCRATCH/err4" &
C=$!
wait_started "$SCRATCH/err4" "$C"
"${NOBODY[@]}" "$ATTACK" forge "$V"
wait "$C"
rc=$?
S=$(session_in "$SCRATCH/s4")
check "forge -a: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "forge -a: one warning about pid $V's page" \
	bash -c "[ \$(grep -c 'pid $V.s control page' '$SCRATCH/err4') -eq 1 ] &&
		grep -q 'pid $V.s control page is not read: it belongs to uid 65534' '$SCRATCH/err4'"
check "forge -a: pauses.csv does not name $V" bash -c "! grep -q '^$V,' '$S/pauses.csv'"
first=$(kept "$S" -p "$V" --time-filter 0:1)
last=$(kept "$S" -p "$V" --time-filter 2:)
check "forge -a: $V is sampled in the last second ($last; first second $first)" \
	bash -c "[ ${last:-0} -gt 0 ] && [ $((${last:-0} * 4)) -ge ${first:-0} ]"
kill "$V" 2>/dev/null
rm -f "/dev/shm/uprof.$V"

# ---- 5. 100 empty page files of another user's processes, then a real target ----
"${NOBODY[@]}" bash -c 'for i in $(seq 100); do sleep 60 & echo $!; done' >"$SCRATCH/sleepers"
mapfile -t sleepers <"$SCRATCH/sleepers"
procs+=("${sleepers[@]}")
mapfile -t roots < <(ps -u root -o pid= | awk '{print $1}' | head -20)
GO=$SCRATCH/go
"$UPROF" collect -o "$SCRATCH/s5" "$TGT/page_attack" late "$GO" 20 >/dev/null 2>"$SCRATCH/err5" &
C=$!
wait_started "$SCRATCH/err5" "$C"
for p in "${sleepers[@]}" "${roots[@]}"; do [ -e "/dev/shm/uprof.$p" ] || shm_made+=("$p"); done
"${NOBODY[@]}" "$ATTACK" empty "${sleepers[@]}" "${roots[@]}"
made=$(for p in "${sleepers[@]}" "${roots[@]}"; do [ "$(stat -c %u "/dev/shm/uprof.$p" 2>/dev/null)" = 65534 ] && echo; done | wc -l)
check "empty: uid 65534 made $made empty page files (100 of its own processes, 20 of root's)" \
	[ "$made" -ge 100 ]
touch "$GO"
wait "$C"
rc=$?
S=$(session_in "$SCRATCH/s5")
check "empty: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "empty: the target and its 20 children each left task records ($(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$'))" \
	[ "$(ls "$S/instrument" 2>/dev/null | grep -c '\.tasks$')" -eq 21 ]
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
count=$(csvq "$S/report.csv" "TASKS (Sort Event" | awk -F'\t' '$1=="Late" && $2=="Proc" {print $3; exit}')
check "empty: all 21 Late/Proc tasks are reported (${count:-none})" [ "${count:-0}" = 21 ]
check "empty: the other user's files are no business of this run: no word" \
	bash -c "! grep -q 'control page' '$SCRATCH/err5'"
kill "${sleepers[@]}" 2>/dev/null
for p in "${sleepers[@]}" "${roots[@]}"; do rm -f "/dev/shm/uprof.$p"; done

# ---- 6. a pause stamped INT64_MAX, then a resume ----
"$UPROF" collect -o "$SCRATCH/s6" "$TGT/page_attack" future 1 >"$SCRATCH/out6" 2>"$SCRATCH/err6"
rc=$?
S=$(session_in "$SCRATCH/s6")
shm_made+=("$(pid_of "$S")")
read -r t0 t1 t2 <"$SCRATCH/out6"
start=$(sed -n 's/^start_mono_ns = //p' "$S/session.ini")
check "future: collect exits 0 ($rc)" [ "$rc" -eq 0 ]
check "future: one warning about the stamp" \
	bash -c "[ \$(grep -c 'stamped later than uprof read' '$SCRATCH/err6') -eq 1 ]"
rows=$(tail -n +2 "$S/pauses.csv")
echo "# future: pause made at $t0, resume called in [$t1, $t2]; pauses.csv: $rows"
check "future: exactly one paused interval" [ "$(printf '%s\n' "$rows" | grep -c .)" -eq 1 ]
pa=$(printf '%s\n' "$rows" | cut -d, -f2)
ra=$(printf '%s\n' "$rows" | cut -d, -f3)
check "future: the pause counts from when collect read it: in [$t0, $t1] ($pa)" \
	bash -c "[ ${pa:-0} -ge $t0 ] && [ ${pa:-0} -le $t1 ]"
check "future: the resume ends it at its own stamp: in [$t1, $t2] +- 1 ms ($ra)" \
	bash -c "[ ${ra:-0} -ge $((t1 - 1000000)) ] && [ ${ra:-0} -le $((t2 + 1000000)) ]"
check "future: session.ini's paused time is that interval" \
	[ "$(sed -n 's/^pause_total_ns = //p' "$S/session.ini")" = "$((ra - pa))" ]
from=$("$PYTHON" -c "print(($t2 - $start) / 1e9 + 0.1)")
n=$(kept "$S" --time-filter "$from:")
check "future: sampling goes on after the resume ($n samples after $from s)" [ "${n:-0}" -gt 0 ]

# ---- 7. collect SIGKILLed while a target makes strict calls ----
GO=$SCRATCH/go7
env AMDUPROF_INSTRUMENT_ENABLE=1 "$TGT/page_attack" strict "$GO" 50 >"$SCRATCH/out7" 2>&1 &
T=$!
procs+=("$T")
shm_made+=("$T")
"$UPROF" collect -p "$T" -d 60 -o "$SCRATCH/s7" >/dev/null 2>"$SCRATCH/err7" &
C=$!
wait_started "$SCRATCH/err7" "$C"
# the target says when collect has attached to its page: then the kill
until grep -q attached "$SCRATCH/out7" || ! kill -0 "$C" 2>/dev/null; do sleep 0.01; done
kill -9 "$C"
wait "$C" 2>/dev/null
touch "$GO"
wait "$T"
res=$(grep failed= "$SCRATCH/out7")
check "killed: no strict call waited for the dead profiler ($res)" [ "$res" = "failed=0 attached=0" ]
check "killed: the target's page is removed at its exit" [ ! -e "/dev/shm/uprof.$T" ]
echo "# hostile_pages: done"
