# lib/symbols: names for sampled addresses (ELF symbols, PLT, CFI bounds, kallsyms, JIT
# maps and dumps, DWARF inline chains), where module files are now, and the build-id
# cache collect fills (symbols/symbols.h). Needs lib/session (the cache reads the
# session's MMAP2 records) and lib/util.
SYMBOLS_SRCS := lib/symbols/symtab.c lib/symbols/plt.c lib/symbols/fdes.c lib/symbols/kallsyms.c \
	lib/symbols/fileid.c lib/symbols/dwfl.c lib/symbols/perfmap.c lib/symbols/jitdump.c \
	lib/symbols/locate.c lib/symbols/buildid.c lib/symbols/inline.c \
	lib/symbols/symshare.c lib/symbols/funcs.c
SYMBOLS_LIB := $(BUILD)/lib/libuprof_symbols.a
SYMBOLS_LDLIBS := -ldw -lelf -lstdc++
$(SYMBOLS_LIB): $(call objs,$(SYMBOLS_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(SYMBOLS_LIB)
# its unit tests: ELF symbols and CFI bounds, kallsyms, perf maps, jitdumps
SYMBOLS_TESTS := test_symtab test_plt test_kallsyms test_perfmap test_jitdump test_symshare
$(patsubst %,$(BUILD)/tests/%,$(SYMBOLS_TESTS)): $(BUILD)/tests/%: tests/unit/%.c $(SYMBOLS_LIB) \
		$(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(SYMBOLS_LDLIBS)
UNIT_TESTS += $(patsubst %,$(BUILD)/tests/%,$(SYMBOLS_TESTS))
