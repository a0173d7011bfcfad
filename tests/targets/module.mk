# Programs the end-to-end tests run under uprof (and make demo).
TGT := $(BUILD)/targets
TARGET_CFLAGS := -O2 -g -fno-omit-frame-pointer
$(TGT)/demo: tests/targets/demo.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/multi: tests/targets/multi.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< -lpthread -ldl
$(TGT)/exec_child: tests/targets/exec_child.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/libplugin.so: tests/targets/plugin.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -shared -fPIC -o $@ $<
$(TGT)/crash: tests/targets/crash.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/cxx_templ: tests/targets/cxx_templ.cpp
	@mkdir -p $(dir $@)
	g++ $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS := $(TGT)/demo $(TGT)/multi $(TGT)/exec_child $(TGT)/libplugin.so $(TGT)/crash \
	$(TGT)/cxx_templ
# instrumented targets link the library just built (shared, found through rpath)
INSTR_LINK = -I include -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lAMDProfileController -lrt -pthread
$(TGT)/pause: tests/targets/pause.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/pause
$(TGT)/tasks: tests/targets/tasks.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
TEST_TARGETS += $(TGT)/tasks
$(TGT)/stress: tests/targets/stress.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
$(TGT)/hostile: tests/targets/hostile.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK)
# the static library, and the API compiled out (no library at all)
$(TGT)/tasks_static: tests/targets/tasks.c $(INSTR_A)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -I include -o $@ $< $(INSTR_A) -lrt -pthread
$(TGT)/tasks_disabled: tests/targets/tasks.c
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -Wall -Werror -I include -DAMDUPROF_DISABLE_INSTRUMENT_API -o $@ $< -pthread
TEST_TARGETS += $(TGT)/stress $(TGT)/hostile $(TGT)/tasks_static $(TGT)/tasks_disabled
$(TGT)/server: tests/targets/server.c $(INSTR_SO)
	@mkdir -p $(dir $@)
	$(CC) $(TARGET_CFLAGS) -o $@ $< $(INSTR_LINK) -ldl
TEST_TARGETS += $(TGT)/server
