REPORT_SRCS := lib/report/model.c lib/report/load.c lib/report/replay.c \
	lib/report/aggregate.c lib/report/rows.c lib/report/csv.c lib/report/pauses.c lib/report/tasks.c lib/report/taskmatch.c lib/report/events.c lib/report/callgraph_thread.c \
	lib/report/filter.c \
	lib/report/programs.c lib/report/walk.c \
	lib/report/rates.c lib/report/foreign.c \
	lib/report/openmp.c lib/report/openmp_csv.c \
	lib/report/openmp_state.c lib/report/openmp_timeline.c lib/report/openmp_hot_csv.c
REPORT_SRCS += lib/report/stacks.c lib/report/fpstack_notes.c lib/report/leafstack_join.c lib/report/callgraph.c lib/report/callgraph_inline.c \
	lib/report/stacks_view.c
REPORT_SRCS += lib/report/annotate.c lib/report/annot_csv.c lib/report/compare.c
REPORT_SRCS += lib/report/translated_cache.c
REPORT_SRCS += lib/report/openmp_source.c lib/report/openmp_loops.c lib/report/openmp_gomp.c
REPORT_SRCS += lib/report/openmp_trace.c
REPORT_SRCS += lib/report/killed.c
REPORT_SRCS += lib/report/code_place.c # addresses a side file recorded, named
REPORT_SRCS += lib/report/csv_cutoff.c
REPORT_SRCS += lib/report/sort_event.c # -s/--sort-by
REPORT_SRCS += lib/report/view.c # --view
REPORT_SRCS += lib/report/intervals.c # --agg-interval
REPORT_SRCS += lib/report/ostrace.c lib/report/ostrace_csv.c lib/report/ostrace_funcs_csv.c lib/report/ostrace_view.c
REPORT_SRCS += lib/report/ostrace_tool.c # its rows for the tool API (issue 32)
REPORT_LIB := $(BUILD)/lib/libuprof_report.a
REPORT_LDLIBS := $(ANNOTATE_LDLIBS) $(SYMBOLS_LDLIBS)
$(REPORT_LIB): $(call objs,$(REPORT_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(REPORT_LIB)
# trace.json's OpenMP slices paired from synthetic .ompt records (lib/report/openmp_trace.c)
$(BUILD)/tests/test_omp_trace: tests/unit/test_omp_trace.c $(REPORT_LIB) $(UNWIND_LIB) \
		$(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) \
		$(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_omp_trace
