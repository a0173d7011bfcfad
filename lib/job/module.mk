# lib/job: the report of an MPI job, every rank's session merged (job/job.h). Built on
# lib/report: link it before libuprof_report.a.
JOB_SRCS := lib/job/job.c lib/job/job_csv.c lib/job/job_mpi.c lib/job/job_trace.c
JOB_LIB := $(BUILD)/lib/libuprof_job.a
$(JOB_LIB): $(call objs,$(JOB_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(JOB_LIB)
# its unit tests: rank lists, jobs of made-up ranks merged and written
$(BUILD)/tests/test_job: tests/unit/test_job.c $(JOB_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) \
		$(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_job
