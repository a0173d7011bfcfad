#!/usr/bin/env bash
# Issue 32: report.db of a --trace os session has uprof_thread_states and uprof_syscalls,
# each row report.csv's THREAD STATES and SYSTEM CALLS BY THREAD row of that thread (times
# in ns there, seconds with 6 decimals in the CSV: equal to the CSV's rounding), keyed by
# threads.id as the other uprof_* tables; a session not traced has both tables, empty.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/ostrace.sh"

os_collect "$TGT/ostrace_waits"
os_report --export sqlite
sqlite3 -csv "$S/report.db" "select s.tid, lifetime, running, runnable, blocked, sleep, io,
	lock, other, unaccounted, switches, preemptions, wakeups, t.tid = s.tid and t.pid = s.pid
	from uprof_thread_states s left join threads t on t.id = s.thread_id" >"$SCRATCH/states.db"
sqlite3 -csv "$S/report.db" "select s.tid, name, calls, errors, total_time, min_time, max_time,
	bytes, t.tid = s.tid from uprof_syscalls s left join threads t on t.id = s.thread_id" \
	>"$SCRATCH/calls.db"
"$PYTHON" - "$S/report.csv" "$SCRATCH/states.db" "$SCRATCH/calls.db" >"$SCRATCH/cmp" 2>&1 <<'PY'
import csv, sys
ls = open(sys.argv[1], newline="").read().split("\n")
def table(title):
    out = []
    for l in ls[ls.index(title) + 2:]:
        if not l.strip():
            break
        out.append(next(csv.reader([l])))
    return out
def sec(ns):  # report.csv's %.6f of the ns
    return "%.6f" % (int(ns) / 1e9)
bad = 0
csv_states = sorted(r[2:12] + r[13:16] for r in table("THREAD STATES"))
db_states = []
for r in csv.reader(open(sys.argv[2])):
    bad += r[13] != "1"  # thread_id is the thread's threads.id
    db_states.append([r[0]] + [sec(x) for x in r[1:10]] + r[10:13])
db_states.sort()
csv_calls = sorted(r[2:4] + r[4:9] + [r[10]] for r in table("SYSTEM CALLS BY THREAD"))
db_calls = []
for r in csv.reader(open(sys.argv[3])):
    bad += r[8] != "1"
    db_calls.append(r[0:4] + [sec(x) for x in r[4:7]] + [r[7]])
db_calls.sort()
# the CSV's Avg column is derived: checked from the database's total / calls
for name, a, b in (("thread state", csv_states, db_states), ("system call", csv_calls, db_calls)):
    for x in a:
        if x not in b:
            print("%s row only in report.csv: %s" % (name, x))
    for x in b:
        if x not in a:
            print("%s row only in report.db: %s" % (name, x))
    bad += a != b
print("%d thread rows, %d system-call rows" % (len(db_states), len(db_calls)))
sys.exit(1 if bad or len(db_states) < 3 or not db_calls else 0)
PY
rc=$?
sed 's/^/# /' "$SCRATCH/cmp"
check "uprof_thread_states and uprof_syscalls are report.csv's rows ($(tail -1 "$SCRATCH/cmp"))" [ $rc -eq 0 ]
check "the 1000 getppid calls are there" \
	[ "$(sqlite3 "$S/report.db" "select sum(calls) from uprof_syscalls where name = 'getppid'")" = 1000 ]

"$UPROF" collect -o "$SCRATCH/plain" "$TGT/demo" 10 >/dev/null 2>&1
P=$(session_in "$SCRATCH/plain")
"$UPROF" report -i "$P" --export sqlite >/dev/null 2>&1
check "a session not traced: both tables there, empty" \
	[ "$(sqlite3 "$P/report.db" "select (select count(*) from uprof_thread_states) || ',' || (select count(*) from uprof_syscalls)")" = "0,0" ]

echo "1..$_n"
