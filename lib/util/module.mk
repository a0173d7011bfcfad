# lib/util: containers and writers every library shares (util.h): string map, hash,
# growing string, escaping for CSV/HTML/JSON. It depends on nothing of ours: link it after
# every library that uses it.
UTIL_SRCS := lib/util/strmap.c lib/util/hash.c lib/util/sbuf.c lib/util/escape.c \
	lib/util/dirfd.c
UTIL_SRCS += lib/util/tmpfile.c
UTIL_LIB := $(BUILD)/lib/libuprof_util.a
$(UTIL_LIB): $(call objs,$(UTIL_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(UTIL_LIB)
# its unit tests: the string map, the hash, the string builder and exact escaper outputs
$(BUILD)/tests/test_util: tests/unit/test_util.c $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_util
# the directory-fd rule: beneath, no symlinks, swapped directories, modes
$(BUILD)/tests/test_util_dirfd: tests/unit/test_util_dirfd.c $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_util_dirfd
