# Unit tests of lib/pmc, lib/sampler and lib/report's model (tests/module.mk has the rest).
$(BUILD)/tests/test_pmc: tests/unit/test_pmc.c $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
$(BUILD)/tests/test_sampler: tests/unit/test_sampler.c $(SAMPLER_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_pmc $(BUILD)/tests/test_sampler
$(BUILD)/tests/test_report: tests/unit/test_report.c $(REPORT_LIB) $(PMC_LIB) $(SESSION_LIB) \
		$(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_report
