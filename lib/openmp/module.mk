# lib/openmp: the OpenMP model of a --trace openmp session (openmp/openmp.h): sites and
# their time split, target offload. Needs lib/session and lib/util; lib/report loads and
# writes it: link it after libuprof_report.a.
OPENMP_SRCS := lib/openmp/openmp_sites.c lib/openmp/openmp_target.c lib/openmp/openmp_loops.c \
	lib/openmp/openmp_imbalance.c lib/openmp/openmp_nest.c
OPENMP_SRCS += lib/openmp/openmp_window.c
OPENMP_SRCS += lib/openmp/openmp_waits.c
OPENMP_LIB := $(BUILD)/lib/libuprof_openmp.a
$(OPENMP_LIB): $(call objs,$(OPENMP_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(OPENMP_LIB)
# its unit tests: target and device records into figures, on made-up records
$(BUILD)/tests/test_openmp: tests/unit/test_openmp.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_openmp
# loops: schedules, sums, the region of each loop (openmp_loops.c)
$(BUILD)/tests/test_openmp_loops: tests/unit/test_openmp_loops.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_openmp_loops
# the imbalance of a region both ways (wall Work and CPU time), on made-up teams
$(BUILD)/tests/test_openmp_imbalance: tests/unit/test_openmp_imbalance.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_openmp_imbalance
# a window that ended before the process: figures rebuilt from made-up region records
$(BUILD)/tests/test_openmp_window: tests/unit/test_openmp_window.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_openmp_window
# waits by type per (region, thread), from wait records and from the tool's sums
$(BUILD)/tests/test_omp_waits: tests/unit/test_omp_waits.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_omp_waits
