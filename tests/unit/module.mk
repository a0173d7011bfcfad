# Unit tests of lib/pmc, lib/sampler and lib/report's model (tests/module.mk has the rest).
$(BUILD)/tests/test_pmc: tests/unit/test_pmc.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
$(BUILD)/tests/test_sampler: tests/unit/test_sampler.c $(SAMPLER_LIB) $(PMC_LIB) $(SESSION_LIB)
$(BUILD)/tests/test_sampler: tests/unit/test_sampler.c $(SAMPLER_LIB) $(PMC_LIB) $(SESSION_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -Wl,--wrap=pmc_sys_perf_event_open -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_pmc $(BUILD)/tests/test_sampler
$(BUILD)/tests/test_report: tests/unit/test_report.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
$(BUILD)/tests/test_report_damage: tests/unit/test_report_damage.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) \
		$(UTIL_LIB) $(ARCH_LIB) $(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_report $(BUILD)/tests/test_report_damage
$(BUILD)/tests/test_report_stream: tests/unit/test_report_stream.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) \
		$(UTIL_LIB) $(ARCH_LIB) $(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_report_stream
$(BUILD)/tests/test_report_foreign: tests/unit/test_report_foreign.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) \
		$(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_report_foreign
$(BUILD)/tests/test_session_callchain: tests/unit/test_session_callchain.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_callchain
# lib/instrument's ITT collector, built from the library's sources (the library itself is
# never sanitized) and read back through lib/sampler's control-page reader.
INSTR_TEST_SRCS := lib/instrument/itt.c lib/instrument/api.c lib/instrument/page.c lib/instrument/channel.c
$(BUILD)/tests/test_itt: tests/unit/test_itt.c $(INSTR_TEST_SRCS) $(SAMPLER_LIB) $(SESSION_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt -pthread
UNIT_TESTS += $(BUILD)/tests/test_itt
# lib/pmc: the encoding table (libpfm4, forced Zen PMUs), sysfs/topology, counts and formulas
$(BUILD)/tests/test_pmc_encode: tests/unit/test_pmc_encode.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_encode
$(BUILD)/tests/test_pmc_counts: tests/unit/test_pmc_counts.c $(PMC_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(PMC_LDLIBS)
$(BUILD)/tests/test_pmc_metrics: tests/unit/test_pmc_metrics.c $(PMC_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_counts $(BUILD)/tests/test_pmc_metrics
PMC_WRAPS := -Wl,--wrap=pmc_sys_perf_event_open,--wrap=pmc_sys_ioctl,--wrap=pmc_sys_read,--wrap=pmc_sys_close
$(BUILD)/tests/test_pmc_sysfs: tests/unit/test_pmc_sysfs.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) $(PMC_WRAPS) -lcmocka $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_sysfs
$(BUILD)/tests/test_instrument: tests/unit/test_instrument.c $(INSTR_TEST_SRCS) $(SAMPLER_LIB) $(SESSION_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt -pthread
UNIT_TESTS += $(BUILD)/tests/test_instrument
# nested parallelism: the OMPT tool's part (built from its source) and the report model's
$(BUILD)/tests/test_ompt_nest: tests/unit/test_ompt_nest.c lib/instrument/ompt_nest.c $(OPENMP_LIB) $(SESSION_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_ompt_nest
$(BUILD)/tests/test_callgraph: tests/unit/test_callgraph.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/callgraph_fp
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka \
		$(PMC_LDLIBS) $(REPORT_LDLIBS) $(EXPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_callgraph
# dwarf unwinding, inline chains, labels and self time on binaries of known CFI and DWARF
$(BUILD)/tests/test_unwind: tests/unit/test_unwind.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/unwind_frames $(BUILD)/targets/inline_chain
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka \
		$(PMC_LDLIBS) $(REPORT_LDLIBS) $(EXPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_unwind
# translated.bin: its format, and reports with and without it on a dwarf session by hand
$(BUILD)/tests/test_translated: tests/unit/test_translated.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/unwind_frames
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka \
		$(PMC_LDLIBS) $(REPORT_LDLIBS) $(EXPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_translated
# The arbitration of pauses across processes (lib/session/pauses.c), on synthetic calls
$(BUILD)/tests/test_pause_arbiter: tests/unit/test_pause_arbiter.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_pause_arbiter
# docs/DESIGN.md §6's task, event and pause semantics (lib/report/taskmatch.c), on synthetic records
$(BUILD)/tests/test_semantics: tests/unit/test_semantics.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_semantics
# The control page ABI's versions (older/newer minor, other major) on synthetic pages
$(BUILD)/tests/test_ctlpage: tests/unit/test_ctlpage.c $(SAMPLER_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt
UNIT_TESTS += $(BUILD)/tests/test_ctlpage
# Where a pause ring dropped records (lib/sampler/pausegap.c), on a synthetic page
$(BUILD)/tests/test_pausegap: tests/unit/test_pausegap.c $(SAMPLER_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt
UNIT_TESTS += $(BUILD)/tests/test_pausegap
# Opening pages a hostile process made (owner, type, size, pid) and pages truncated under us
$(BUILD)/tests/test_ctlpage_open: tests/unit/test_ctlpage_open.c $(SAMPLER_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt -pthread
UNIT_TESTS += $(BUILD)/tests/test_ctlpage_open
# lib/sampler's page set: discovery, the one drain thread, pause arbitration (real pages)
$(BUILD)/tests/test_pageset: tests/unit/test_pageset.c $(SAMPLER_LIB) $(SESSION_LIB) $(PMC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lrt -pthread
UNIT_TESTS += $(BUILD)/tests/test_pageset
# lib/session's tasks files and pauses.csv: round trips, 0.1.0's files, cuts and corruption
$(BUILD)/tests/test_session_tasks: tests/unit/test_session_tasks.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_tasks
# lib/metric: metric sets as report evaluates them
$(BUILD)/tests/test_metric: tests/unit/test_metric.c $(METRIC_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_metric
# lib/metric: the roofline file (pcm roofline -o / -i) and its point, on the Zen fixture
$(BUILD)/tests/test_roofline: tests/unit/test_roofline.c $(METRIC_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -DFIXTURE='"$(CURDIR)/tests/fixtures/roofline-zen3/report.csv"' \
		-o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_roofline
# lib/pmc's one explainer of open errors, against a fake procfs
$(BUILD)/tests/test_pmc_explain: tests/unit/test_pmc_explain.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_explain
# lib/symbols/locate.c and buildid.c through a report: moved binaries, the build-id cache, --symbol-path
$(BUILD)/tests/test_locate: tests/unit/test_locate.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_locate
# lib/report/rates.c: achieved rates by mode, throttled and overrun timers
$(BUILD)/tests/test_rates: tests/unit/test_rates.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) \
		$(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_rates
# lib/launcher: rank and job id from the launcher's environment; the PMI-1 client on a socketpair
$(BUILD)/tests/test_launcher: tests/unit/test_launcher.c $(LAUNCHER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_launcher
# pcm roofline's measuring (lib/metric) and kernels (lib/arch): counts, exact kernel
# results, best/median arithmetic; again with the portable kernels other architectures get
$(BUILD)/tests/test_roofline_bench: tests/unit/test_roofline_bench.c $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -DBASELINE='"$(if $(filter x86_64,$(ARCH_MACHINE)),sse2,generic)"' \
		-o $@ $^ $(LDFLAGS) -lcmocka -lm -pthread
UNIT_TESTS += $(BUILD)/tests/test_roofline_bench
$(BUILD)/tests/test_roofline_bench_generic: tests/unit/test_roofline_bench.c $(METRIC_LIB) $(UTIL_LIB) \
		$(call objs,lib/arch/roofline_generic.c)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -DBASELINE='"generic"' -o $@ $^ $(LDFLAGS) -lcmocka -lm -pthread
UNIT_TESTS += $(BUILD)/tests/test_roofline_bench_generic
# cli/options.c: the option tables' parser and --help generator (no library needed)
$(BUILD)/tests/test_options: tests/unit/test_options.c cli/options.c cli/options.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_options
# lib/metric: configuration files read from a directory the caller names
$(BUILD)/tests/test_metric_config: tests/unit/test_metric_config.c $(METRIC_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih -lm
UNIT_TESTS += $(BUILD)/tests/test_metric_config
# lib/metric: uProf's view configurations against the shipped configs and lib/pmc's events
$(BUILD)/tests/test_metric_views: tests/unit/test_metric_views.c $(PMC_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih -lm $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_metric_views
# lib/metric's roofline_bench.o pulls roofline.o, which writes CSV cells with lib/util
$(BUILD)/tests/test_roofline_bench $(BUILD)/tests/test_roofline_bench_generic: $(UTIL_LIB)
# lib/pmc: pcm's metric groups (events, classes, formula values) on the fake machine
$(BUILD)/tests/test_pmc_groups: tests/unit/test_pmc_groups.c $(PMC_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_groups
# lib/pmc: pcm's nineteen groups per Zen generation and their shipped formulas
$(BUILD)/tests/test_pcm_family: tests/unit/test_pcm_family.c $(PMC_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -linih $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pcm_family
# lib/pmc: counting at an interval, with this process's software events
$(BUILD)/tests/test_pmc_counting: tests/unit/test_pmc_counting.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_pmc_counting
$(BUILD)/tests/test_report_numbers: tests/unit/test_report_numbers.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) \
		$(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB) $(BUILD)/targets/demo
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_report_numbers
# lib/report's OpenMP timeline: states of points and barriers' late threads from records
$(BUILD)/tests/test_omp_timeline: tests/unit/test_omp_timeline.c $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(PMC_LIB) $(SESSION_LIB) \
		$(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $(filter %.c %.a,$^) $(LDFLAGS) -lcmocka -lm \
		$(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_omp_timeline
# lib/session/mpi_sites.c: the .mpi file's call-site records, whole, cut and corrupted
$(BUILD)/tests/test_session_mpi_sites: tests/unit/test_session_mpi_sites.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_session_mpi_sites
# lib/session/mpi_events.c: mpi/<pid>.mpiev (--trace mpi=full) on whole, cut and corrupted files
$(BUILD)/tests/test_mpi_events: tests/unit/test_mpi_events.c $(SESSION_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka
UNIT_TESTS += $(BUILD)/tests/test_mpi_events
# lib/export/mpi_match.c: MPI messages matched send to arrival, on made-up ranks' calls
$(BUILD)/tests/test_mpi_match: tests/unit/test_mpi_match.c $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) \
		$(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SESSION_LIB) $(METRIC_LIB) $(UTIL_LIB) \
		$(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm $(REPORT_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_mpi_match
# lib/pmc/uprobe.c (collect --func) against a fake tracefs
$(BUILD)/tests/test_uprobe: tests/unit/test_uprobe.c $(PMC_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka $(PMC_LDLIBS)
UNIT_TESTS += $(BUILD)/tests/test_uprobe

# lib/metric's pcm cumulative table reader (uprof pcm compare): exact values, damaged files
$(BUILD)/tests/test_pcm_table: tests/unit/test_pcm_table.c $(METRIC_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_pcm_table

# lib/metric's pcm timeseries and run file readers (uprof pcm hreport): exact values, damaged files
$(BUILD)/tests/test_pcm_series: tests/unit/test_pcm_series.c $(METRIC_LIB) $(UTIL_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(UNIT_CFLAGS) -o $@ $^ $(LDFLAGS) -lcmocka -lm
UNIT_TESTS += $(BUILD)/tests/test_pcm_series
