# lib/unwind: libdwfl's unwinder of the user stacks copied with the samples
# (--call-graph dwarf) and translated.bin's format (unwind/unwind.h). Needs lib/symbols
# (module files, where they are now), lib/session and lib/arch; lib/report gives it each
# process's mappings: link it after libuprof_report.a.
UNWIND_SRCS := lib/unwind/unwind.c lib/unwind/unwind_share.c lib/unwind/rule_table.c \
	lib/unwind/translated.c
UNWIND_LIB := $(BUILD)/lib/libuprof_unwind.a
$(UNWIND_LIB): $(call objs,$(UNWIND_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(UNWIND_LIB)
# its unit tests: translated.bin's format (the unwinder is tested through reports:
# tests/unit/test_unwind.c)
$(BUILD)/tests/test_translated_format: tests/unit/test_translated_format.c $(UNWIND_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_translated_format
# a leaf's CFI row from the module of the mapping that holds it, with or without the job's
# share, where libdwfl's module ranges overlap (real libz and libdw, laid out by hand)
$(BUILD)/tests/test_unwind_overlap: tests/unit/test_unwind_overlap.c $(UNWIND_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(SYMBOLS_LDLIBS) -lz -ldl
UNIT_TESTS += $(BUILD)/tests/test_unwind_overlap
