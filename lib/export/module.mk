# lib/export: folded stacks, the flame graph SVG and the Perfetto trace of a report
# (export/export.h). Reads the report's stacks through report.h's accessors: link it
# before libuprof_report.a.
EXPORT_SRCS := lib/export/export.c lib/export/export_folded.c lib/export/export_flamegraph.c \
	lib/export/export_perfetto.c lib/export/export_perfetto_omp.c \
	lib/export/export_perfetto_mpi.c lib/export/mpi_match.c
EXPORT_LIB := $(BUILD)/lib/libuprof_export.a
$(EXPORT_LIB): $(call objs,$(EXPORT_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(EXPORT_LIB)
# its unit tests: the exporter table and folded frame names (the files themselves are
# checked on a session: test_callgraph's exports, tests/e2e/exports.sh)
$(BUILD)/tests/test_export: tests/unit/test_export.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) \
		$(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) \
		$(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_export
