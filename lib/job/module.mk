# lib/job: the report of an MPI job, every rank's session merged (job/job.h). Built on
# lib/report: link it before libuprof_report.a.
JOB_SRCS := lib/job/job.c lib/job/job_csv.c lib/job/job_mpi.c lib/job/job_mpi_apart.c lib/job/job_rank_mpi.c lib/job/job_mpi_noinit.c
JOB_SRCS += lib/job/job_trace.c
JOB_SRCS += lib/job/job_end.c
JOB_SRCS += lib/job/job_sites.c lib/job/job_sizes.c # MPI call sites, sizes per rank
# the job's one time line, hosts' clocks merged (issue 29)
JOB_SRCS += lib/job/job_timeline.c
# --agg-interval on that line: SAMPLES PER INTERVAL per rank (issue 33)
JOB_SRCS += lib/job/job_intervals.c
# each rank's sampling rate, and why a low one is low (issue 29)
JOB_SRCS += lib/job/job_rates.c
# one-sided traffic, origin ---> target (issue 29)
JOB_SRCS += lib/job/job_mpi_rma.c
# its MPI data for the tool API's mpi_rank and mpi_call (issue 32)
JOB_SRCS += lib/job/job_tool.c lib/job/job_sqlite.c # and its report.db
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
# MPI_Init/Finalize apart from MPI time, on a job of made-up ranks
$(BUILD)/tests/test_job_mpi: tests/unit/test_job_mpi.c $(JOB_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) \
		$(SYMBOLS_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_job_mpi
