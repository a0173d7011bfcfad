# lib/timechart: power, frequency and temperature at an interval (uprof timechart), from
# APERF/MPERF, cpufreq, /proc/cpuinfo, RAPL powercap and hwmon (amd_energy for cores). Needs $(PMC_LIB) after it
# (its CPU lists).
TIMECHART_SRCS := lib/timechart/read.c lib/timechart/probe.c lib/timechart/sample.c \
	lib/timechart/csv.c lib/timechart/energy.c
TIMECHART_LIB := $(BUILD)/lib/libuprof_timechart.a
$(TIMECHART_LIB): $(call objs,$(TIMECHART_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^
LIBS += $(TIMECHART_LIB)
# its unit tests: sources found on a fake tree, exact power from energy deltas (and their
# wrap), temperatures, APERF/MPERF through a replaced MSR reader, P-states, the CSV layout, damaged files
$(BUILD)/tests/test_timechart: tests/unit/test_timechart.c $(TIMECHART_LIB) $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -Wl,--wrap=tc_read_msr -lcmocka -lpfm -lm
UNIT_TESTS += $(BUILD)/tests/test_timechart
