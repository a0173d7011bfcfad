#!/usr/bin/env bash
# Issue 32: a tool of API 1.3 over a --trace os session gets each thread's states
# (os_thread) and each thread's system calls (os_syscall). tests/tool/osstates.c writes them
# back in report.csv's own number style; every row must be one of THREAD STATES' and SYSTEM
# CALLS BY THREAD's, and every row of those one of the tool's. A session not traced calls
# neither; a tool declaring API 1.2 that sets the slots (reserved there) is refused.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/ostrace.sh"

T=$TGT/tools/osstates.so
os_collect "$TGT/ostrace_waits"
os_report --tool "$T"
"$PYTHON" - "$S/report.csv" >"$SCRATCH/cmp" 2>&1 <<'PY'
import csv, sys
ls = open(sys.argv[1], newline="").read().split("\n")
def table(title):
    i = ls.index(title) + 2
    out = []
    for l in ls[i:]:
        if not l.strip():
            break
        out.append(next(csv.reader([l])))
    return out
# THREAD STATES: Process,Thread,TID,Lifetime..Other,Unaccounted(s),Unaccounted(%),Switches..
states = sorted(",".join(r[2:12] + r[13:16]) for r in table("THREAD STATES"))
# SYSTEM CALLS BY THREAD: Process,Thread,TID,System Call,Count,Errors,Total,Min,Max,Avg,Bytes
calls = sorted(",".join(r[2:]) for r in table("SYSTEM CALLS BY THREAD"))
tool_states = sorted(r[0] for r in table('"OS THREADS (Tool - osstates)"'))
tool_calls = sorted(r[0] for r in table('"OS SYSCALLS (Tool - osstates)"'))
bad = 0
for name, want, got in (("thread", states, tool_states), ("syscall", calls, tool_calls)):
    for w in sorted(set(want) ^ set(got)):
        print("%s row only in %s: %s" % (name, "report.csv" if w in want else "the tool", w))
    bad += want != got
print("%d thread rows, %d system-call rows (report: %d, %d)" % (len(tool_states), len(tool_calls), len(states), len(calls)))
sys.exit(1 if bad or len(states) < 3 or not calls else 0)
PY
rc=$?
sed 's/^/# /' "$SCRATCH/cmp"
check "every thread's states and system calls are report.csv's ($(tail -1 "$SCRATCH/cmp"))" [ $rc -eq 0 ]
check "the tool saw the 1000 getppid calls the target makes" \
	grep -qE '^"[0-9]+,getppid,1000,0,' "$S/report.csv"

"$UPROF" collect -o "$SCRATCH/plain" "$TGT/demo" 10 >/dev/null 2>&1
P=$(session_in "$SCRATCH/plain")
"$UPROF" report -i "$P" --tool "$T" >/dev/null 2>&1
rc=$?
check "over a session not traced: exit 0, no OS section from the tool" \
	bash -c "[ $rc = 0 ] && ! grep -q 'Tool - osstates' '$P/report.csv'"
expect_fail 1 "a tool declaring API 1.2 that sets os_thread (reserved there) is refused" \
	"tool .*osstates12.so: refused: reserved slot 0 of its descriptor is not zero \(its tool API 1.2 reserves it; API 1.3's os_thread: rebuild against this uprof_tool.h\)$" \
	"$UPROF" info --tool "$TGT/tools/osstates12.so"

echo "1..$_n"
