#!/usr/bin/env bash
# Must-show 2: threads, fork without exec, fork+exec, posix_spawn, vfork and a dlopen'ed
# library: every function lands under the right process, thread and module.
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect -o "$SCRATCH/out" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" \
	>/dev/null 2>"$SCRATCH/err"
check "collect of multi exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/out")
"$UPROF" report -i "$S" --detail --cutoff 0 >/dev/null 2>&1
check "report --detail exits 0" [ $? -eq 0 ]
R=$S/report.csv

# function -> module, from the hottest-functions table
module_of() { csvq "$R" "FUNCTIONS" | awk -F'\t' -v f="$1" '$1==f{print $3; exit}'; }
check "main_work in the multi binary" [ "$(module_of main_work)" = "$TGT/multi" ]
check "plugin_work in the dlopen'ed libplugin.so" [ "$(module_of plugin_work)" = "$TGT/libplugin.so" ]
check "exec_child_work in the exec'ed binary" [ "$(module_of exec_child_work)" = "$TGT/exec_child" ]

procs=$(csvq "$R" "PROCESSES")
main_pid=$(awk -F'\t' '/^multi /{print $1}' <<<"$procs" | head -1 | sed 's/.*PID:\([0-9]*\).*/\1/')
nmulti=$(grep -c '^multi (PID' <<<"$procs")
nexec=$(grep -c '^exec_child (PID' <<<"$procs")
check "two multi processes: parent and forked child ($nmulti)" [ "$nmulti" -eq 2 ]
check "three exec_child processes: fork+exec, posix_spawn, vfork ($nexec)" [ "$nexec" -eq 3 ]

# In the main process's block: its three threads and its functions, nothing from children
block() { csvq "$R" "$1" --after "PROFILE REPORT FOR PROCESS - $2"; }
mainfuncs=$(block "FUNCTION SUMMARY" "multi (PID:$main_pid)" | cut -f1)
for f in main_work thread_a_work thread_b_work plugin_work; do
	check "$f under the main process" grep -qx "$f" <<<"$mainfuncs"
done
check "forked_child_work not under the main process" bash -c "! grep -qx forked_child_work <<<'$mainfuncs'"
child_pid=$(awk -F'\t' '/^multi /{print $1}' <<<"$procs" | sed 's/.*PID:\([0-9]*\).*/\1/' | grep -vx "$main_pid")
childfuncs=$(block "FUNCTION SUMMARY" "multi (PID:$child_pid)" | cut -f1)
check "forked_child_work under the forked child" grep -qx forked_child_work <<<"$childfuncs"
threads=$(block "THREAD SUMMARY" "multi (PID:$main_pid)" | cut -f1)
check "renamed thread shown by its name" grep -q "^worker-a (PID:$main_pid)" <<<"$threads"
check "unnamed thread shown as Thread-<tid>" grep -q "^Thread-[0-9]* (PID:$main_pid)" <<<"$threads"
check "main thread shown by the process name" grep -q "^multi (PID:$main_pid)" <<<"$threads"

# each thread's own function, via --group-by thread
"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>&1
tfunc() { csvq "$R" "FUNCTION SUMMARY" --after "PROFILE REPORT FOR THREAD - $1" | head -1 | cut -f1; }
check "worker-a's hottest function is thread_a_work" [ "$(tfunc "worker-a (PID:$main_pid)")" = thread_a_work ]
check "Thread-N's hottest function is thread_b_work" [ "$(tfunc "Thread-")" = thread_b_work ]

# each share is about right: every work function burns a known amount
# the sampled CPU time against the session's own CPU time of the target and the children it
# waited for (wait4), not against how fast this machine is: at most that (one sample per
# 1 ms of it, +10 %), and over half of it (every process and thread was followed)
total=$(csvq "$R" "FUNCTIONS" | awk -F'\t' '{t+=$2} END{print t}')
cpu=$(sed -n 's/^cpu_ns = //p' "$S/session.ini")
check "total CPU_TIME is the targets' CPU time, sampled ($total s of ${cpu:-?} ns)" \
	"$PYTHON" -c "import sys; c = ${cpu:-0} / 1e9; sys.exit(0 if c / 2 < $total <= c * 1.1 + 0.002 else 1)"
