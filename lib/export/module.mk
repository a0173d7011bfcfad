# lib/export: folded stacks, the flame graph SVG and the Perfetto trace of a report
# (export/export.h). Reads the report's stacks through report.h's accessors: link it
# before libuprof_report.a.
EXPORT_SRCS := lib/export/export.c lib/export/export_folded.c lib/export/export_flamegraph.c \
	lib/export/export_perfetto.c lib/export/export_perfetto_omp.c lib/export/export_sqlite.c \
	lib/export/export_sqlite_schema.c lib/export/export_pprof.c \
	lib/export/export_perfetto_mpi.c lib/export/mpi_match.c lib/export/export_wall.c \
	lib/export/export_perfetto_os.c
EXPORT_SRCS += lib/export/export_sqlite_os.c # report.db's OS-trace tables (issue 32)
EXPORT_SRCS += lib/export/export_perfetto_agg.c # --agg-interval's counter tracks (issue 33)
EXPORT_SRCS += lib/export/export_html.c lib/export/html_csv.c lib/export/html_flame.c \
	lib/export/html_timeline.c lib/export/html_source.c lib/export/html_mpi.c
# report.html's style and script, kept as their own files, become C strings at build time
# (lib/export/html/embed.sh: each line a string literal, no tool beyond sed)
EXPORT_HTML_ASSETS := lib/export/html/report.css lib/export/html/report_calls.js \
	lib/export/html/report_source.js lib/export/html/report_mpi_timeline.js \
	lib/export/html/report.js
$(BUILD)/gen/export/html_assets.c: lib/export/html/embed.sh $(EXPORT_HTML_ASSETS)
	@mkdir -p $(dir $@)
	lib/export/html/embed.sh $(EXPORT_HTML_ASSETS) >$@
$(OBJ)/gen/export/html_assets.o: $(BUILD)/gen/export/html_assets.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
EXPORT_LIB := $(BUILD)/lib/libuprof_export.a
$(EXPORT_LIB): $(call objs,$(EXPORT_SRCS)) $(OBJ)/gen/export/html_assets.o
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(EXPORT_LIB)
EXPORT_LDLIBS := -lsqlite3 -lz
# its unit tests: the exporter table and folded frame names (the files themselves are
# checked on a session: test_callgraph's exports, tests/e2e/exports.sh)
$(BUILD)/tests/test_export: tests/unit/test_export.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) \
		$(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) \
		$(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS) \
		$(EXPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_export
# report.html's tables: report.csv's text into JSON sections, exact, bounded, and whole
# whatever byte the text is cut at
$(BUILD)/tests/test_export_html: tests/unit/test_export_html.c $(EXPORT_LIB) $(REPORT_LIB) \
		$(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) \
		$(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_export_html
