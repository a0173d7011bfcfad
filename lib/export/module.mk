# lib/export: folded stacks, the flame graph SVG and the Perfetto trace of a report
# (export/export.h). Reads the report's stacks through report.h's accessors: link it
# before libuprof_report.a.
EXPORT_SRCS := lib/export/export.c lib/export/export_folded.c lib/export/export_flamegraph.c \
	lib/export/export_perfetto.c
EXPORT_LIB := $(BUILD)/lib/libuprof_export.a
$(EXPORT_LIB): $(call objs,$(EXPORT_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(EXPORT_LIB)
