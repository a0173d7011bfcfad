#!/usr/bin/env bash
# Issue 28, must show 1 (regions and loops): our equivalents of LLVM's
# openmp/runtime/test/ompt programs for parallel (repeated, if(0), nested, nested
# serialized), teams, sections, worksharing loops (static, dynamic, guided; two loops in one region) and taskloop, each
# count checked exact against what tests/targets/omp_equiv_regions.c was built to do (the
# program checks its own counts and says so): region instances, team sizes, implicit
# tasks per thread, loop iterations and schedules, tasks created. Three builds: clang
# (LLVM libomp 14, whose OMPT 5.0 loop event has no schedule: "Unknown"), gcc (libgomp,
# traced through --openmp-impl omplib; gcc lowers a static loop inline, so that region is
# a "parallel" without a loop event) and clang-19 against LLVM 19's runtime (schedules
# said). Cases whose right answer is another slice's (nest, loops) are TODO skips.
. "$(dirname "$0")/lib/common.sh"
. "$HERE/omp_equiv.sh"

SRC=tests/targets/omp_equiv_regions.c
F=omp_equiv_regions.c
L_REP=$(line_of $SRC 'parallel num_threads(2) reduction(+ : threads)')
L_IF0=$(line_of $SRC 'if (never)')
L_OUT=$(line_of $SRC 'parallel num_threads(2) reduction(+ : inner)' 1)
L_IN=$(line_of $SRC 'parallel num_threads(2) reduction(+ : inner)' 2)
L_SO=$(line_of $SRC 'parallel num_threads(2) reduction(+ : inner)' 3)
L_SI=$(line_of $SRC 'parallel num_threads(2) reduction(+ : inner)' 4)
L_SEC=$(line_of $SRC '#pragma omp parallel sections')
L_ST=$(line_of $SRC 'schedule(static)')
L_DY=$(line_of $SRC 'schedule(dynamic, 3)')
L_GU=$(line_of $SRC 'schedule(guided)')
L_TWO=$(line_of $SRC 'parallel num_threads(2) reduction(+ : n)' 1)
L_TL=$(line_of $SRC 'parallel num_threads(2) shared(n)')
L_TP=$(line_of $SRC 'parallel num_threads(2) reduction(+ : inner)' 5)
L_TM=$(line_of $SRC '#pragma omp teams')

# regions BUILD SCHED GCC: the checks of one build's run ($R); SCHED is "known" where the
# runtime says a loop's schedule (LLVM 19), else "Unknown"; GCC is 1 for the gcc build
regions() {
	local b=$1 sched=$2 gcc=$3 st dy gu
	local REP="repeated\$omp\$parallel:1@$F:$L_REP" IF0="if0\$omp\$parallel:1@$F:$L_IF0"
	local OUT="nested\$omp\$parallel:1@$F:$L_OUT" IN="nested\$omp\$parallel:2@$F:$L_IN"
	local TWO="two_loops\$omp\$parallel_for:1@$F:$L_TWO" TL="taskloop\$omp\$parallel:1@$F:$L_TL"
	local ST="sched_static\$omp\$parallel_for:1@$F:$L_ST"

	# parallel/: a region entered 5 times is one row of 5 instances; each member of the
	# team of 2 ran 5 implicit tasks
	check "$b repeated: 5 instances of a team of 2" is "5 2" "$(cells "$REP" Instances "Thread Count")"
	check "$b repeated: 10 implicit tasks, 5 a thread" \
		is "10 5 5" "$(threads "$REP" "Implicit Tasks") $(ompq "$R" thread "$REP" 0 "Implicit Tasks") $(ompq "$R" thread "$REP" 1 "Implicit Tasks")"
	# parallel/parallel_if0: a team of one, still a region each time
	check "$b if(0): 3 instances of a team of 1, 3 implicit tasks" \
		is "3 1 3" "$(cells "$IF0" Instances "Thread Count") $(threads "$IF0" "Implicit Tasks")"
	# parallel/nested: the outer region once with 2 threads; the inner twice, once per outer
	# thread, 4 implicit tasks in all
	check "$b nested: outer region 1 instance of 2 threads, 2 implicit tasks" \
		is "1 2 2" "$(cells "$OUT" Instances "Thread Count") $(threads "$OUT" "Implicit Tasks")"
	check "$b nested: inner region 2 instances, 4 implicit tasks" \
		is "2 4" "$(cells "$IN" Instances) $(threads "$IN" "Implicit Tasks")"
	check "$b nested: inner region's Thread Count is its team size, 2" \
		is 2 "$(cells "$IN" "Thread Count")"
	# parallel/nested_serialized: with one active level the inner regions are teams of 1,
	# still one instance per outer thread
	local SO="serialized\$omp\$parallel:1@$F:$L_SO" SI="serialized\$omp\$parallel:2@$F:$L_SI"
	check "$b serialized nest: outer 1 instance of 2 threads; inner 2 instances, 2 implicit tasks" \
		is "1 2 2 2" "$(cells "$SO" Instances "Thread Count") $(cells "$SI" Instances) $(threads "$SI" "Implicit Tasks")"
	check "$b serialized nest: inner Thread Count is its team size, 1" \
		is 1 "$(cells "$SI" "Thread Count")"
	# worksharing/sections (barrier/sections): one region of 2 threads; 3 sections are no
	# loop (libomp's GOMP shim runs gcc's sections as a dynamic loop of 3: the report
	# tells them by gcc's GOMP_sections_start call and names the region sections)
	check "$b sections: 1 instance of 2 threads" \
		is "1 2" "$(cells "sections\$omp\$parallel" Instances "Thread Count")"
	check "$b sections: no loop iterations for 3 sections" \
		is empty "$(cells "sections\$omp\$parallel" "Loop Iterations")"
	if [ "$gcc" = 1 ]; then
		check "$b sections: the region is named parallel_sections, and no loop row of unknown origin" \
			is "1 0" "$(ompq "$R" count "sections\$omp\$parallel_sections:1@$F:$L_SEC") $(grep -c 'omp\$for:[0-9]*@unknown:0' "$R")"
	fi
	# worksharing/for: iterations of each loop, and its schedule where the runtime says it
	if [ "$gcc" = 1 ]; then
		# gcc computes a static schedule's chunks inline: no runtime call, no loop event
		ST="sched_static\$omp\$parallel:1@$F:$L_ST"
		check "$b static: a parallel region (gcc's inline static loop has no loop event), 1 instance of 2 threads" \
			is "1 2 empty" "$(cells "$ST" Instances "Thread Count" "Loop Iterations")"
	else
		st=Unknown
		[ "$sched" = known ] && st=Static
		check "$b static: 120 iterations, schedule $st, 1 instance of 2 threads" \
			is "120 $st 1 2" "$(cells "$ST" "Loop Iterations" "Schedule Type" Instances "Thread Count")"
	fi
	dy=Unknown gu=Unknown
	[ "$sched" = known ] && dy=Dynamic gu=Guided
	check "$b dynamic: 90 iterations, schedule $dy, 1 instance of 2 threads" \
		is "90 $dy 1 2" "$(cells "sched_dynamic\$omp\$parallel_for:1@$F:$L_DY" "Loop Iterations" "Schedule Type" Instances "Thread Count")"
	check "$b guided: 60 iterations, schedule $gu, 1 instance of 2 threads" \
		is "60 $gu 1 2" "$(cells "sched_guided\$omp\$parallel_for:1@$F:$L_GU" "Loop Iterations" "Schedule Type" Instances "Thread Count")"
	# a region of two loops (100 and 50 iterations) ran 150
	check "$b two loops: one region, 1 instance of 2 threads" is "1 2" "$(cells "$TWO" Instances "Thread Count")"
	check "$b two loops: Loop Iterations is the region's 150 (100 + 50)" \
		is 150 "$(cells "$TWO" "Loop Iterations")"
	# tasks/taskloop: num_tasks(4) makes 4 tasks, of 40 iterations in all
	check "$b taskloop: 4 tasks created in the region's 1 instance of 2 threads" \
		is "4 1 2" "$(cells "$TL" "Tasks Created" Instances "Thread Count")"
	check "$b taskloop: its 40 iterations" is 40 "$(cells "$TL" "Loop Iterations")"
	# teams/: host teams of 2, each team's master opening a region of 2 threads: that
	# region 2 instances of a team of 2, one row at its pragma; no row of unknown origin
	if [ "$gcc" = 1 ]; then # gcc's host teams have no row of their own at that line
		check "$b teams: one row at the inner parallel's line" \
			is 1 "$(ompq "$R" count "@$F:$L_TP")"
	else
		check "$b teams: one row at the inner parallel's line" \
			is 1 "$(ompq "$R" count "@$F:$L_TP")"
	fi
	check "$b teams: the inner parallel 2 instances of a team of 2, 4 implicit tasks" \
		is "2 2 4" "$(cells "teams\$omp\$parallel:1@$F:$L_TP" Instances "Thread Count") $(threads "teams\$omp\$parallel:1@$F:$L_TP" "Implicit Tasks")"
	# gcc's host teams fork in libomp's GOMP_teams_reg: the report names the construct by
	# the teams' outlined function its regions are called from (the teams pragma's line)
	check "$b teams: no row of unknown origin" is 0 "$(ompq "$R" count "@unknown:0")"
	if [ "$gcc" = 1 ]; then
		check "$b teams: the teams construct at its pragma (line $L_TM), the region's parent" \
			is "1 teams\$omp\$teams:1@$F:$L_TM" \
			"$(ompq "$R" count "teams\$omp\$teams:1@$F:$L_TM") $(cells "teams\$omp\$parallel:1@$F:$L_TP" "Parent Region")"
	fi
}

# KMP_TEAMS_THREAD_LIMIT: libomp gives each host team at most CPUs / teams threads by
# default, 1 on a 2-CPU machine, and the teams' regions of 2 would be teams of 1
if [ -x "$TGT/omp_equiv_regions" ]; then
	KMP_TEAMS_THREAD_LIMIT=4 equiv_run clang omp_equiv_regions
	regions clang Unknown 0
else
	skip "clang or LLVM libomp missing: omp_equiv_regions not built"
fi
if [ -x "$TGT/omp_equiv_regions_gcc" ] && ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	KMP_TEAMS_THREAD_LIMIT=4 equiv_run gcc omp_equiv_regions_gcc --openmp-impl omplib
	regions gcc Unknown 1
else
	skip "gcc or LLVM libomp missing: the gcc build not traced"
fi
if [ -x "$TGT/omp_equiv_regions19" ]; then
	KMP_TEAMS_THREAD_LIMIT=4 equiv_run clang19 omp_equiv_regions19
	regions clang19 known 0
else
	skip "clang-19 or LLVM 19's runtime missing: omp_equiv_regions19 not built"
fi

echo "# skipped: $skipped"
echo "1..$_n"
