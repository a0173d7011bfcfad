# Programs the end-to-end tests run under uprof (and make demo).
TGT := $(BUILD)/targets
TARGET_CFLAGS := -O2 -g -fno-omit-frame-pointer
$(TGT)/demo: tests/targets/demo.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/multi: tests/targets/multi.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread -ldl
$(TGT)/exec_child: tests/targets/exec_child.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/libplugin.so: tests/targets/plugin.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -shared -fPIC -o $@ $<
$(TGT)/crash: tests/targets/crash.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/cxx_templ: tests/targets/cxx_templ.cpp
	@mkdir -p $(dir $@)
	g++ $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS := $(TGT)/demo $(TGT)/multi $(TGT)/exec_child $(TGT)/libplugin.so $(TGT)/crash \
	$(TGT)/cxx_templ
# instrumented targets link the library just built (shared, found through rpath)
INSTR_LINK = -I include -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lAMDProfileController -lrt -pthread
$(TGT)/pause: tests/targets/pause.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/pause
$(TGT)/tasks: tests/targets/tasks.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/tasks
$(TGT)/stress: tests/targets/stress.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
$(TGT)/hostile: tests/targets/hostile.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
$(TGT)/odd_names: tests/targets/odd_names.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/odd_names
# N instrumented children at once (tests/e2e/many_children.sh)
$(TGT)/children: tests/targets/children.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/children
# millions of pause/resume calls: a pause ring overflowing (tests/e2e/pause_storm.sh)
$(TGT)/pause_storm: tests/targets/pause_storm.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/pause_storm
# strict calls timed by the target once uprof is SIGKILLed (tests/e2e/kill_points.sh)
$(TGT)/kill_target: tests/targets/kill_target.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/kill_target
# the static library, and the API compiled out (no library at all)
$(TGT)/tasks_static: tests/targets/tasks.c $(INSTR_A)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -I include -o $@ $< $(INSTR_A) -lrt -pthread
$(TGT)/tasks_disabled: tests/targets/tasks.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -Wall -Werror -I include -DAMDUPROF_DISABLE_INSTRUMENT_API -o $@ $< -pthread
TEST_TARGETS += $(TGT)/stress $(TGT)/hostile $(TGT)/tasks_static $(TGT)/tasks_disabled
# forged, empty, shrinking and future-stamped control pages (tests/e2e/hostile_pages.sh)
$(TGT)/page_attack: tests/targets/page_attack.c lib/instrument/ctlpage.h $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -I lib -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/page_attack
# the library's sources built as an older minor of the control page ABI (2.0, what every
# library before minors wrote) and as a major this uprof does not read (3.0), linked
# statically as an old application would be (tests/e2e/instrument_abi.sh)
INSTR_ABI_DEPS := tests/targets/tasks.c $(INSTR_SRCS) lib/instrument/ctlpage.h lib/instrument/internal.h
$(TGT)/tasks_abi_2_0: $(INSTR_ABI_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) $(CPPFLAGS) -DUPROF_CTL_MINOR=0 -o $@ tests/targets/tasks.c $(INSTR_SRCS) -lrt -pthread
$(TGT)/tasks_abi_3_0: $(INSTR_ABI_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) $(CPPFLAGS) -DUPROF_CTL_WRITE_MAJOR=3 -DUPROF_CTL_MINOR=0 -o $@ tests/targets/tasks.c $(INSTR_SRCS) -lrt -pthread
TEST_TARGETS += $(TGT)/tasks_abi_2_0 $(TGT)/tasks_abi_3_0
$(TGT)/server: tests/targets/server.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK) -ldl
TEST_TARGETS += $(TGT)/server
# ITT: two ITT static parts of our own (itt_static.c, compiled twice) under one harness;
# an OpenMP program (clang + LLVM libomp, whose own ITT part loads the collector), built
# only where clang and libomp are installed (tests/e2e/itt.sh skips it otherwise).
$(TGT)/itt_static_a.o: tests/targets/itt_static.c tests/targets/itt_static.h
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -Wall -Wextra -DITT_PART=a -c -o $@ $<
$(TGT)/itt_static_b.o: tests/targets/itt_static.c tests/targets/itt_static.h
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -Wall -Wextra -DITT_PART=b -DITT_OLD -c -o $@ $<
$(TGT)/itt_harness: tests/targets/itt_harness.c $(TGT)/itt_static_a.o $(TGT)/itt_static_b.o
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -Wall -Wextra -rdynamic -o $@ $^ -ldl -pthread
TEST_TARGETS += $(TGT)/itt_harness
HAVE_OMP := $(and $(shell command -v clang 2>/dev/null),$(wildcard /usr/lib/llvm-*/lib/libomp.so))
$(TGT)/itt_omp: tests/targets/itt_omp.c
	@mkdir -p $(dir $@)
	clang $(TARGET_CFLAGS) -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/itt_omp)
# OpenMP through OMPT (tests/e2e/openmp.sh): the same program built by clang against LLVM's
# libomp and by gcc against libgomp (traced with --openmp-impl omplib)
$(TGT)/omp_regions: tests/targets/omp_regions.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_regions_gcc: tests/targets/omp_regions.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
# known barrier waits for trace.json's OpenMP slices (tests/e2e/omp_trace.sh)
$(TGT)/omp_trace: tests/targets/omp_trace.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_trace)
# constructs beside a header's inline helpers, named after their own functions
# (tests/e2e/openmp_names.sh): C and C++, by clang (LLVM libomp) and gcc (libgomp, traced
# through --openmp-impl omplib)
$(TGT)/omp_names: tests/targets/omp_names.c tests/targets/omp_names.h
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_names_cxx: tests/targets/omp_names.cpp tests/targets/omp_names.h
	@mkdir -p $(dir $@)
	clang++ -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_names_gcc: tests/targets/omp_names.c tests/targets/omp_names.h
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_names_gxx: tests/targets/omp_names.cpp tests/targets/omp_names.h
	@mkdir -p $(dir $@)
	g++ -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_names $(if $(shell command -v clang++ 2>/dev/null),$(TGT)/omp_names_cxx)) \
	$(TGT)/omp_names_gcc $(if $(shell command -v g++ 2>/dev/null),$(TGT)/omp_names_gxx)
# nested teams and host teams with known answers (tests/e2e/omp_nested.sh): clang (LLVM
# libomp) and gcc (libgomp, traced through --openmp-impl omplib)
$(TGT)/omp_nested: tests/targets/omp_nested.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_nested_gcc: tests/targets/omp_nested.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_nested) $(TGT)/omp_nested_gcc
# its OMPT tool of its own, chained behind uprof's: the program's region times between the
# callbacks uprof's tool stamps (clang has omp-tools.h in its own include directory)
$(TGT)/libomp_nested_stamps.so: tests/targets/omp_nested_stamps.c
	@mkdir -p $(dir $@)
	clang -O1 -fPIC -shared -Wall -Wextra -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/libomp_nested_stamps.so)
$(TGT)/omp_sites_gcc: tests/targets/omp_sites.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -fopenmp -o $@ $<
TEST_TARGETS += $(TGT)/omp_sites_gcc
# a user's own OMPT tool, which must keep getting its events behind uprof's (clang has
# omp-tools.h in its own include directory)
$(TGT)/libomp_usertool.so: tests/targets/omp_usertool.c
	@mkdir -p $(dir $@)
	clang -O1 -fPIC -shared -Wall -Wextra -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_regions $(TGT)/libomp_usertool.so) $(TGT)/omp_regions_gcc
# a program living in parallel regions, for partial windows, fork and exit() inside a
# region (tests/e2e/omp_window.sh): clang (libomp) and gcc (libgomp, traced via omplib)
$(TGT)/omp_window: tests/targets/omp_window.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $< $(INSTR_LINK)
$(TGT)/omp_window_gcc: tests/targets/omp_window.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_window) $(TGT)/omp_window_gcc
# waits of known types and lengths (tests/e2e/omp_waits.sh): clang + LLVM libomp, and gcc
# (libgomp, traced through --openmp-impl omplib)
$(TGT)/omp_waits: tests/targets/omp_waits.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_waits_gcc: tests/targets/omp_waits.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_waits) $(TGT)/omp_waits_gcc
# target offload to the x86_64 host device (tests/e2e/openmp_offload.sh): clang-19 against
# LLVM 19's runtime, unpacked under build/ (scripts/llvm19-omp.sh says why). Where the
# packages cannot be had, the target is not built and the e2e file skips, saying so.
HAVE_CLANG19 := $(shell command -v clang-19 2>/dev/null)
$(TGT)/omp_offload: tests/targets/omp_offload.c scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		echo "clang-19 -fopenmp-targets=x86_64-pc-linux-gnu -o $@ $<"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH clang-19 -O1 -g -fopenmp \
			-fopenmp-targets=x86_64-pc-linux-gnu -L$$L -Wl,-rpath,$$L -o $@ $<; \
	else echo "omp_offload: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_CLANG19),$(TGT)/omp_offload)
# target directives on consecutive lines, each its own row (tests/e2e/openmp_names.sh)
$(TGT)/omp_target_kinds: tests/targets/omp_target_kinds.c scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		echo "clang-19 -fopenmp-targets=x86_64-pc-linux-gnu -o $@ $<"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH clang-19 -O1 -g -fopenmp \
			-fopenmp-targets=x86_64-pc-linux-gnu -L$$L -Wl,-rpath,$$L -o $@ $<; \
	else echo "omp_target_kinds: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_CLANG19),$(TGT)/omp_target_kinds)
# the same programs as omp_names by clang-19 against LLVM 19's runtime (its outlined
# functions are "<f>.omp_outlined", artificial; omp.h is the runtime's own)
$(TGT)/omp_names19 $(TGT)/omp_names19_cxx: $(TGT)/omp_names19%: tests/targets/omp_names.c \
		tests/targets/omp_names.cpp tests/targets/omp_names.h scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		src=tests/targets/omp_names.c cc=clang-19; \
		if [ "$*" = _cxx ]; then src=tests/targets/omp_names.cpp cc=clang++-19; fi; \
		echo "$$cc -fopenmp -o $@ $$src"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH $$cc -O1 -g -fopenmp \
			-isystem $$L/clang/19/include -L$$L -Wl,-rpath,$$L -o $@ $$src; \
	else echo "$@: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_CLANG19),$(TGT)/omp_names19 $(TGT)/omp_names19_cxx)
# worksharing loops and taskloops with known counts (tests/e2e/omp_loops.sh): clang 14 and
# LLVM libomp, gcc (traced through --openmp-impl omplib), clang 19 against LLVM 19's runtime
# (which names each loop's schedule)
$(TGT)/omp_loops: tests/targets/omp_loops.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_loops_gcc: tests/targets/omp_loops.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_loops19: tests/targets/omp_loops.c scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		echo "clang-19 -fopenmp -o $@ $<"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH clang-19 -O1 -g -fopenmp \
			-isystem $$L/clang/19/include -L$$L -Wl,-rpath,$$L -o $@ $<; \
	else echo "$@: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_loops) $(TGT)/omp_loops_gcc \
	$(if $(HAVE_CLANG19),$(TGT)/omp_loops19)
# our equivalents of LLVM's openmp/runtime/test/ompt programs, counts known by
# construction (tests/e2e/omp_llvm_equiv*.sh): by clang (LLVM libomp), by gcc (libgomp,
# traced through --openmp-impl omplib) and by clang-19 against LLVM 19's runtime, whose
# OMPT 5.1 work callback says a loop's schedule (libomp 14's does not)
OMP_EQUIV := omp_equiv_regions omp_equiv_sync
$(OMP_EQUIV:%=$(TGT)/%): $(TGT)/%: tests/targets/%.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -Wall -Wextra -o $@ $<
$(OMP_EQUIV:%=$(TGT)/%_gcc): $(TGT)/%_gcc: tests/targets/%.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -Wall -Wextra -o $@ $<
$(OMP_EQUIV:%=$(TGT)/%19): $(TGT)/%19: tests/targets/%.c scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		echo "clang-19 -fopenmp -o $@ $<"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH clang-19 -O1 -g -fopenmp \
			-isystem $$L/clang/19/include -L$$L -Wl,-rpath,$$L -o $@ $<; \
	else echo "$@: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_OMP),$(OMP_EQUIV:%=$(TGT)/%)) $(OMP_EQUIV:%=$(TGT)/%_gcc) \
	$(if $(HAVE_CLANG19),$(OMP_EQUIV:%=$(TGT)/%19))
# omp_waits by clang-19 against LLVM 19's runtime, which tells a worksharing construct's
# closing barrier from a parallel region's (OpenMP 5.1's kinds; libomp 14 says "implicit")
$(TGT)/omp_waits19: tests/targets/omp_waits.c scripts/llvm19-omp.sh
	@mkdir -p $(dir $@)
	@if L=$$(scripts/llvm19-omp.sh $(BUILD)/llvm19); then \
		echo "clang-19 -fopenmp -o $@ $<"; \
		PATH=$$L/../bin:/usr/lib/llvm-19/bin:$$PATH clang-19 -O1 -g -fopenmp \
			-isystem $$L/clang/19/include -L$$L -Wl,-rpath,$$L -o $@ $<; \
	else echo "$@: not built (LLVM 19's OpenMP runtime could not be had)"; fi
TEST_TARGETS += $(if $(HAVE_CLANG19),$(TGT)/omp_waits19)
# a stand-in runtime written from the specification's device-tracing interface, which no
# installed runtime implements (tests/omp_harness/harness.c says what it delivers)
$(TGT)/omp_harness: tests/omp_harness/harness.c lib/instrument/ompt_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) $(CPPFLAGS) -Wall -Wextra -o $@ $< -ldl
TEST_TARGETS += $(TGT)/omp_harness
# call stacks: the same program with and without frame pointers
$(TGT)/callgraph_fp: tests/targets/callgraph.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o $@ $<
$(TGT)/callgraph_nofp: tests/targets/callgraph.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -o $@ $<
TEST_TARGETS += $(TGT)/callgraph_fp $(TGT)/callgraph_nofp
# a frameless leaf with two callers, as gcc -O2 -fno-omit-frame-pointer makes it (fp_leaf_callers.sh)
$(TGT)/leafg: tests/targets/leafg.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-omit-frame-pointer -o $@ $<
TEST_TARGETS += $(TGT)/leafg
# a C++ program whose time is in inlined STL code (tests/e2e/dwarf_vs_perf.sh)
$(TGT)/stl_map: tests/targets/stl_map.cpp
	@mkdir -p $(dir $@)
	g++ -O2 -g -o $@ $<
TEST_TARGETS += $(TGT)/stl_map
# frames with CFI known to the byte, and an inline chain (tests/unit/test_unwind.c)
$(TGT)/unwind_frames: tests/targets/unwind_frames.S
	@mkdir -p $(dir $@)
	$(CC) -nostdlib -Wl,-e,uw_entry -Wl,--build-id -o $@ $<
$(TGT)/inline_chain: tests/targets/inline_chain.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -o $@ $<
TEST_TARGETS += $(TGT)/unwind_frames $(TGT)/inline_chain
# the same library loaded, unloaded and loaded again elsewhere (dwarf unwinding in it)
$(TGT)/dlreload: tests/targets/dlreload.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -o $@ $< -ldl
TEST_TARGETS += $(TGT)/dlreload
# odd function and thread names for the exports
$(TGT)/odd_frames: tests/targets/odd_frames.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/odd_frames
# uprof pcm: a deterministic workload (page faults, voluntary context switches, CPU time)
$(TGT)/pcm_work: tests/targets/pcm_work.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/pcm_work
$(TGT)/phases: tests/targets/phases.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/phases
# unusual process shapes and binaries (tests/e2e/unusual.sh)
$(TGT)/unusual: tests/targets/unusual.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/unusual
# by_program.sh: a program that starts others by exec (as make does), a program to start;
# jit.sh: a JIT in miniature that writes perf's /tmp/perf-<pid>.map (or, given a DIR, a
# jitdump DIR/jit-<pid>.dump)
$(TGT)/forker: tests/targets/forker.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/spin_ms: tests/targets/spin_ms.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/jit: tests/targets/jit.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/forker $(TGT)/spin_ms $(TGT)/jit
# x86-64 assembly with hand-written CFI (tests/e2e/dwarf_ends.sh)
ifeq ($(shell uname -m),x86_64)
$(TGT)/cfa_rbx: tests/targets/cfa_rbx.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/cfa_rbx
endif
# tests/e2e/annotate.sh: a linked shared library with DWARF, a stripped one it dlopens
$(TGT)/libannot_lib.so: tests/targets/annot_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -shared -fPIC -o $@ $<
$(TGT)/libannot_strip.so: tests/targets/annot_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -DANNOT_NAME=strip_hot -shared -fPIC -o $@ $<
	strip $@
$(TGT)/annotate: tests/targets/annotate.c $(TGT)/libannot_lib.so $(TGT)/libannot_strip.so
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -L$(TGT) -lannot_lib -Wl,-rpath,'$$ORIGIN' -ldl
TEST_TARGETS += $(TGT)/libannot_lib.so $(TGT)/libannot_strip.so $(TGT)/annotate
# tests/e2e/compare.sh: two functions of fixed work, one twice as long with "slow"
$(TGT)/compare_two: tests/targets/compare_two.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/compare_two
# tests/e2e/rates.sh: user work and write(2)s; static where the libc allows, so that its start
# and exit (outside what its getrusage sees) cost as good as nothing, which counts when every
# microsecond of it runs 2000x slower under a 10 us timer
$(TGT)/rates_mix: tests/targets/rates_mix.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -static -o $@ $< 2>/dev/null || $(CC) -O1 -o $@ $<
TEST_TARGETS += $(TGT)/rates_mix
# tests/e2e/symbol_paths.sh: the program it moves and strips, and a rebuild of it (another
# build id, the same name)
$(TGT)/symbol_hot: tests/targets/symbol_hot.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -Wl,--build-id -o $@ $<
$(TGT)/symbol_hot_rebuilt: tests/targets/symbol_hot.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -Wl,--build-id -DHOT_STEP=0.75 -o $@ $<
TEST_TARGETS += $(TGT)/symbol_hot $(TGT)/symbol_hot_rebuilt
# report tools (tests/e2e/tool.sh, mpi.sh): one asking for an event and DWARF stacks, one
# built against API 1.0's header, bench's no-op tool, and tests/tool/broken.c once per way of
# going wrong (broken-<kind>.so). tool.sh still builds the examples itself: that they build
# out of tree against the installed header is what it checks.
TOOL_KINDS := segv hang fail major reserved noreg exit noentry fork
TEST_TOOLS := $(TGT)/tools/wants.so $(TGT)/tools/old10.so $(TGT)/tools/noop.so \
	$(TGT)/tools/ompslices.so $(TGT)/tools/ompslices11.so $(TGT)/tools/dropfn.so \
	$(TGT)/tools/dropfn11.so $(TGT)/tools/mpiranks.so $(TGT)/tools/mpiranks12.so \
	$(TGT)/tools/mpiranks13.so \
	$(TGT)/tools/osstates.so $(TGT)/tools/osstates12.so $(TGT)/tools/resolver.so \
	$(patsubst %,$(TGT)/tools/broken-%.so,$(TOOL_KINDS))
$(TGT)/tools/wants.so: tests/tool/wants.c include/uprof_tool.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Iinclude -o $@ $<
# API 1.2's OpenMP slices summed per site (tests/e2e/tool_omp.sh)
$(TGT)/tools/ompslices.so: tests/tool/ompslices.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TGT)/tools/ompslices11.so: tests/tool/ompslices.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -DDECLARE_1_1 -o $@ $<
# API 1.2's sample filter (tests/e2e/tool_filter.sh), and as if declared 1.1
$(TGT)/tools/dropfn.so: tests/tool/dropfn.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TGT)/tools/dropfn11.so: tests/tool/dropfn.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -DDECLARE_1_1 -o $@ $<
# API 1.3's MPI ranks and calls and 1.4's sites and events over a job (tests/e2e/tool_mpi.sh),
# and as if declared 1.2
$(TGT)/tools/mpiranks.so: tests/tool/mpiranks.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TGT)/tools/mpiranks12.so: tests/tool/mpiranks.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -DDECLARE_1_2 -o $@ $<
# API 1.4's call sites and events as if declared 1.3, where their slots were reserved
$(TGT)/tools/mpiranks13.so: tests/tool/mpiranks.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -DDECLARE_1_3 -o $@ $<
# API 1.3's OS-trace threads and system calls (tests/e2e/tool_os.sh), and as if declared 1.2
$(TGT)/tools/osstates.so: tests/tool/osstates.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TGT)/tools/osstates12.so: tests/tool/osstates.c include/uprof_tool.h tests/tool/tool_row.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -DDECLARE_1_2 -o $@ $<
# API 1.3's core->resolve on sampled addresses (tests/e2e/tool_resolve.sh)
$(TGT)/tools/resolver.so: tests/tool/resolver.c include/uprof_tool.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TGT)/tools/noop.so: bench/tools/noop.c include/uprof_tool.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Iinclude -o $@ $<
$(TGT)/tools/old10.so: tests/tool/old10.c $(wildcard tests/tool/api-1.0/*.h)
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Itests/tool/api-1.0 -o $@ $<
$(TGT)/tools/broken-%.so: tests/tool/broken.c include/uprof_tool.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Iinclude -DKIND=$* -DKIND_$*=1 -o $@ $<
TEST_TARGETS += $(TEST_TOOLS)
# the race harness (tests/e2e/race_*.sh): a command under ptrace, another user's swap of a
# directory it writes done at its K-th file call
$(TGT)/swaptrace: tests/tool/swaptrace.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -o $@ $<
TEST_TARGETS += $(TGT)/swaptrace
# a known number of context switches (tests/e2e/switch_count.sh)
$(TGT)/switches: tests/targets/switches.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/switches
# tests/tool/hostile.c once per attack on the report it runs in (tool_isolation.sh)
HOSTILE_KINDS := entrysegv escape leak spin tamper
$(TGT)/tools/hostile-%.so: tests/tool/hostile.c include/uprof_tool.h
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wall -Iinclude -DKIND=$* -DKIND_$*=1 -o $@ $<
TEST_TARGETS += $(patsubst %,$(TGT)/tools/hostile-%.so,$(HOSTILE_KINDS))
# a region's imbalance both ways, wall and CPU (tests/e2e/omp_imbalance.sh): clang against
# LLVM libomp, gcc against libgomp (traced through --openmp-impl omplib)
$(TGT)/omp_imbalance: tests/targets/omp_imbalance.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
$(TGT)/omp_imbalance_gcc: tests/targets/omp_imbalance.c
	@mkdir -p $(dir $@)
	gcc -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_imbalance) $(TGT)/omp_imbalance_gcc
# hot functions per OpenMP state and the late thread (tests/e2e/omp_hot.sh): clang + libomp
$(TGT)/omp_hot: tests/targets/omp_hot.c
	@mkdir -p $(dir $@)
	clang -O1 -g -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(TGT)/omp_hot)
# processes that yield the CPU to each other (e2e mpi_rates.sh, bench/switch_cost.sh)
$(TGT)/switch_yield: tests/targets/switch_yield.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(TGT)/switch_yield
# --trace os's known waits (tests/e2e/ostrace.sh)
$(TGT)/ostrace_waits: tests/targets/ostrace_waits.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/ostrace_waits
# --trace os's known wakers: a mutex and a condition variable (tests/e2e/ostrace_wakers.sh)
$(TGT)/ostrace_wakers: tests/targets/ostrace_wakers.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/ostrace_wakers
# collect --func's known counts: three functions called a known number of times
# (tests/e2e/ostrace_funcs.sh)
$(TGT)/ostrace_funcs: tests/targets/ostrace_funcs.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/ostrace_funcs
$(TGT)/ostrace_server: tests/targets/ostrace_server.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread
TEST_TARGETS += $(TGT)/ostrace_server
