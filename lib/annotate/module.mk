# lib/annotate: Function Detail Data's pure parts (annotate/annotate.h): samples on
# instructions and source lines, source text, a function's code from its ELF file, and
# the disassembler. lib/report's annotate.c builds the views from a report with them.
ANNOTATE_SRCS := lib/annotate/annot_lines.c lib/annotate/annot_src.c lib/annotate/annot_elf.c
# the assembly view's disassembler, one file per architecture as lib/arch chooses its own
# (ARCH_MACHINE, lib/arch/module.mk): Zydis on x86-64 (annotate.h says why), none elsewhere
ifeq ($(ARCH_MACHINE),x86_64)
ANNOTATE_DISASM_SRCS := lib/annotate/disasm_x86_64.c
ANNOTATE_DISASM_LDLIBS := -lZydis
else
ANNOTATE_DISASM_SRCS := lib/annotate/disasm_generic.c
endif
ANNOTATE_SRCS += $(ANNOTATE_DISASM_SRCS)
ANNOTATE_LIB := $(BUILD)/lib/libuprof_annotate.a
ANNOTATE_LDLIBS := $(ANNOTATE_DISASM_LDLIBS) $(SYMBOLS_LDLIBS)
$(ANNOTATE_LIB): $(call objs,$(ANNOTATE_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(ANNOTATE_LIB)
# its unit tests: line aggregation, shares, source text, disassembly; a function's code
# read from a real binary (tests/targets/annotate.c)
$(BUILD)/tests/test_annot: tests/unit/test_annot.c $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(ANNOTATE_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_annot
$(BUILD)/tests/test_annot_elf: tests/unit/test_annot_elf.c $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) \
		$(UTIL_LIB) $(ARCH_LIB) $(BUILD)/targets/annotate
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka \
		$(ANNOTATE_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_annot_elf
