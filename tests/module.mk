# Unit tests (cmocka), one binary per module file; test targets built for e2e tests.
UNIT_CFLAGS := $(CFLAGS)
$(BUILD)/tests/test_session: tests/unit/test_session.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session
$(BUILD)/tests/test_session_info: tests/unit/test_session_info.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_info
$(BUILD)/tests/test_session_fuzz: tests/unit/test_session_fuzz.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_fuzz
$(BUILD)/tests/test_session_ompt: tests/unit/test_session_ompt.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_ompt
$(BUILD)/tests/test_session_writer: tests/unit/test_session_writer.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_writer
$(BUILD)/tests/test_session_record: tests/unit/test_session_record.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_record
$(BUILD)/tests/test_session_foreign: tests/unit/test_session_foreign.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_foreign
# leafstack.data and the split of fp samples with a leaf copy
$(BUILD)/tests/test_session_leafstack: tests/unit/test_session_leafstack.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_leafstack
$(BUILD)/tests/test_session_dir: tests/unit/test_session_dir.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_dir
# lib/session/input.c: session files that are FIFOs, devices, directories or sockets
$(BUILD)/tests/test_session_input: tests/unit/test_session_input.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_input
$(BUILD)/tests/test_session_mpi: tests/unit/test_session_mpi.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_mpi
# lib/report's comparison of two sessions (uprof compare), on made-up rows
$(BUILD)/tests/test_compare: tests/unit/test_compare.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_compare
# side files as the release before the one container wrote them (tests/fixtures/sidefiles-v1)
$(BUILD)/tests/test_session_sidefiles_v1: tests/unit/test_session_sidefiles_v1.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_sidefiles_v1
# the side-file container on its own: bytes, versions, both framings, every cut and corruption
$(BUILD)/tests/test_session_container: tests/unit/test_session_container.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_container
