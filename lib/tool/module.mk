# lib/tool: the plug-in host of include/uprof_tool.h (docs/DESIGN.md §11)
TOOL_SRCS := lib/tool/knobs.c lib/tool/desc.c lib/tool/host.c lib/tool/child.c lib/tool/driver.c \
	lib/tool/driver_job.c lib/tool/driver_mpi.c lib/tool/driver_os.c lib/tool/resolve.c \
	lib/tool/sandbox.c lib/tool/supervise.c
TOOL_LIB := $(BUILD)/lib/libuprof_tool.a
TOOL_LDLIBS := -ldl
$(TOOL_LIB): $(call objs,$(TOOL_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(TOOL_LIB)
# its unit tests: the knob parser and the descriptor checks
$(BUILD)/tests/test_tool: tests/unit/test_tool.c $(TOOL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_tool
# the worker's cell and the supervisor's clean-up, in forked processes
$(BUILD)/tests/test_tool_cell: tests/unit/test_tool_cell.c $(TOOL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_tool_cell
