#!/usr/bin/env bash
# Issue 28, must show 1 (synchronization and tasks): our equivalents of LLVM's
# openmp/runtime/test/ompt programs for lock, nest_lock, test_lock, critical, ordered,
# barrier, explicit tasks, taskwait, taskgroup, undeferred (if(0)) tasks, dependences and
# tasks left to the join barrier, each count checked exact against what
# tests/targets/omp_equiv_sync.c was built to do (the program checks its own counts and
# says so): acquires per call site and the threads that took them, tasks created, region
# instances, team sizes and implicit tasks. Builds: clang (LLVM libomp 14; basic and
# --openmp-scope full, which must count the same), gcc (libgomp, traced through
# --openmp-impl omplib) and clang-19 against LLVM 19's runtime. Explicit barriers are not
# counted by the report (issue 28's "waits" slice shows waits by type): their region is
# checked as a region.
. "$(dirname "$0")/lib/common.sh"
. "$HERE/omp_equiv.sh"

SRC=tests/targets/omp_equiv_sync.c
F=omp_equiv_sync.c
ROUNDS=$(sed -n 's/^#define ROUNDS \([0-9]*\)$/\1/p' $SRC)
ORDERED=$(sed -n 's/^#define ORDERED \([0-9]*\)$/\1/p' $SRC)
TASKS=$(sed -n 's/^#define TASKS \([0-9]*\)$/\1/p' $SRC)
GROUP=$(sed -n 's/^#define GROUP \([0-9]*\)$/\1/p' $SRC)
CHAIN=$(sed -n 's/^#define CHAIN \([0-9]*\)$/\1/p' $SRC)

# sync_checks BUILD GCC: the checks of one run ($R); GCC is 1 for the gcc build
sync_checks() {
	local b=$1 gcc=$2 fn l
	local two=$((2 * ROUNDS))

	# every region: once, a team of 2, one implicit task on each thread
	for fn in lock nest_lock test_lock critical barrier tasks taskgroup undeferred depend joinbarrier; do
		check "$b $fn: its region 1 instance of a team of 2, 2 implicit tasks" \
			is "1 2 2" "$(cells "$fn\$omp\$parallel:1@$F:" Instances "Thread Count") $(threads "$fn\$omp\$parallel:1@$F:" "Implicit Tasks")"
	done
	# synchronization/lock_*: one call site, both threads, ROUNDS acquires each
	l=$(line_of $SRC 'omp_set_lock(&l);' 1)
	check "$b lock: $two acquires at omp_set_lock's line $l, by 2 threads" \
		is "$two 2" "$(locks "lock\$omp\$lock:1@$F:$l" Acquires Threads)"
	# synchronization/nest_lock: the first set takes the lock, the second and the
	# omp_test_nest_lock that answers 3 take it again: each an acquire of its own site
	for k in 1 2; do
		l=$(line_of $SRC 'omp_set_nest_lock(&l);' $k)
		check "$b nest_lock: $two acquires at the set of nesting level $k (line $l), by 2 threads" \
			is "$two 2" "$(locks "nest_lock\$omp\$nest_lock:$k@$F:$l" Acquires Threads)"
	done
	l=$(line_of $SRC 'omp_test_nest_lock(&l)')
	check "$b nest_lock: $two acquires at omp_test_nest_lock (level 3, line $l)" \
		is "$two 2" "$(locks "nest_lock\$omp\$nest_lock:3@$F:$l" Acquires Threads)"
	# synchronization/test_lock: a test of the held lock takes nothing (no row); the
	# holder's set and the test after the release one each
	l=$(line_of $SRC 'omp_set_lock(&l);' 2)
	check "$b test_lock: the holder's omp_set_lock (line $l) 1 acquire by 1 thread" \
		is "1 1" "$(locks "test_lock\$omp\$lock:1@$F:$l" Acquires Threads)"
	l=$(line_of $SRC 'held_fail = omp_test_lock(&l);')
	check "$b test_lock: the failed test of the held lock (line $l) no acquire" \
		is none "$(locks "@$F:$l" Acquires)"
	l=$(line_of $SRC 'free_ok = omp_test_lock(&l);')
	check "$b test_lock: the test of the free lock (line $l) 1 acquire by 1 thread" \
		is "1 1" "$(locks "test_lock\$omp\$lock:3@$F:$l" Acquires Threads)"
	# synchronization/critical: one critical section, ROUNDS entries a thread
	l=$(line_of $SRC '#pragma omp critical')
	check "$b critical: $two acquires at its pragma (line $l), by 2 threads" \
		is "$two 2" "$(locks "critical\$omp\$critical:1@$F:$l" Acquires Threads)"
	# synchronization/ordered: one acquire an iteration; gcc's line table puts the call
	# into the runtime on the loop's pragma line, clang's on the ordered pragma's
	l=$(line_of $SRC '#pragma omp ordered')
	[ "$gcc" = 1 ] && l=$(line_of $SRC 'parallel for ordered')
	check "$b ordered: $ORDERED acquires (line $l), by 2 threads" \
		is "$ORDERED 2" "$(locks "ordered\$omp\$ordered:1@$F:$l" Acquires Threads)"
	check "$b ordered: the loop's $ORDERED iterations" \
		is "$ORDERED" "$(cells "ordered\$omp\$parallel_for:1@$F:" "Loop Iterations")"
	# tasks/explicit_task, taskwait, taskgroup, task_if0: tasks created in each region
	check "$b tasks: $TASKS created" is "$TASKS" "$(cells "tasks\$omp\$parallel:1@$F:" "Tasks Created")"
	check "$b taskgroup: $GROUP created" is "$GROUP" "$(cells "taskgroup\$omp\$parallel:1@$F:" "Tasks Created")"
	check "$b undeferred: 2 created (if(0) tasks are tasks)" \
		is 2 "$(cells "undeferred\$omp\$parallel:1@$F:" "Tasks Created")"
	check "$b depend: a chain of $CHAIN created" is "$CHAIN" "$(cells "depend\$omp\$parallel:1@$F:" "Tasks Created")"
	check "$b joinbarrier: 2 created, one a thread, run by the closing barrier" \
		is 2 "$(cells "joinbarrier\$omp\$parallel:1@$F:" "Tasks Created")"
	check "$b: no tasks in the regions that made none" \
		is "0 0 0 0 0" "$(for fn in lock nest_lock critical barrier test_lock; do cells "$fn\$omp\$parallel:1@$F:" "Tasks Created"; done | tr '\n' ' ' | sed 's/ $//')"
}

if [ -x "$TGT/omp_equiv_sync" ]; then
	equiv_run clang omp_equiv_sync
	sync_checks clang 0
	equiv_run clang_full omp_equiv_sync --openmp-scope full
	sync_checks clang_full 0
	# full scope records each wait; a test of a lock never waits, but libomp calls
	# mutex_acquire before it and nothing after a test that failed, so the tool must not
	# leave a wait begun there (lib/instrument/ompt.c writes a lock wait once it ends in an acquire)
	f=$(ls "$(session_in "$SCRATCH/clang_full")"/openmp/*.ompt 2>/dev/null | head -1)
	check "clang_full: every lock wait begun ends (the failed omp_test_lock's too)" \
		is 0 "$("$PYTHON" "$HERE/omptq.py" "$f" unended 6 2>&1)"
else
	skip "clang or LLVM libomp missing: omp_equiv_sync not built"
fi
if [ -x "$TGT/omp_equiv_sync_gcc" ] && ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	equiv_run gcc omp_equiv_sync_gcc --openmp-impl omplib
	sync_checks gcc 1
else
	skip "gcc or LLVM libomp missing: the gcc build not traced"
fi

if [ -x "$TGT/omp_equiv_sync19" ]; then
	equiv_run clang19 omp_equiv_sync19
	sync_checks clang19 0
else
	skip "clang-19 or LLVM 19's runtime missing: omp_equiv_sync19 not built"
fi

echo "# skipped: $skipped"
echo "1..$_n"
