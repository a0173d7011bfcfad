# lib/ostrace: the OS-tracing model of a --trace os session (ostrace/ostrace.h): tracepoint
# formats, thread states, off-CPU time by stack, the system-call table. Needs lib/util.
OSTRACE_SRCS := lib/ostrace/format.c lib/ostrace/syscalls.c lib/ostrace/model.c \
	lib/ostrace/calls.c lib/ostrace/timeline.c lib/ostrace/funcs.c
OSTRACE_LIB := $(BUILD)/lib/libuprof_ostrace.a
$(OSTRACE_LIB): $(call objs,$(OSTRACE_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(OSTRACE_LIB)
# lib/report feeds the model: its objects go into the report's archive too, so that every
# program linking the report links them without a change to each link line
$(REPORT_LIB): $(call objs,$(OSTRACE_SRCS))
# system call names from this C library's <sys/syscall.h> (the session's architecture is
# the report's: report refuses another)
OSTRACE_GEN := $(BUILD)/gen/ostrace
$(OSTRACE_GEN)/ost_sysnames.h:
	@mkdir -p $(dir $@)
	echo '#include <sys/syscall.h>' | $(CC) -E -dM - | \
		sed -n 's/^#define SYS_\([a-z0-9_]*\) .*/\1/p' | sort -u | \
		awk '{ printf "#ifdef SYS_%s\n\t{ SYS_%s, \"%s\" },\n#endif\n", $$1, $$1, $$1 }' > $@
$(OBJ)/lib/ostrace/syscalls.o: $(OSTRACE_GEN)/ost_sysnames.h
$(OBJ)/lib/ostrace/syscalls.o: CPPFLAGS += -I$(OSTRACE_GEN)
# its unit tests: format files whole, cut and corrupted; the model on made-up records;
# lib/session's codec of the raw samples and switch records it reads
$(BUILD)/tests/test_ostrace: tests/unit/test_ostrace.c $(OSTRACE_LIB) $(SESSION_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_ostrace
