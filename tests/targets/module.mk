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
