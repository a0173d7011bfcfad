CLI_SRCS := cli/pcm.c cli/pcm_groups.c cli/pcm_run.c cli/pcm_out.c cli/pcm_html.c cli/pcm_attach.c cli/pcm_gate.c cli/pcm_affinity.c cli/pcm_msr.c cli/pcm_top.c cli/pcm_profile.c cli/pcm_json.c cli/pcm_compare.c cli/roofline.c cli/roofline_html.c cli/main.c cli/util.c cli/progress.c cli/collect.c cli/collect_opts.c \
	cli/collect_prog.c cli/collect_words.c cli/collect_setid.c cli/collect_info.c cli/collect_open.c \
	cli/collect_explain.c cli/collect_run.c cli/info.c \
	cli/report.c cli/collect_pages.c cli/collect_attach.c cli/collect_events.c \
	cli/collect_launch.c cli/exec_error.c cli/tool.c cli/collect_tool.c \
	cli/collect_mpi.c cli/report_job.c cli/report_summary.c cli/collect_trace.c cli/collect_openmp.c cli/collect_ostrace.c cli/collect_ostrace_funcs.c cli/collect_ostrace_tdata.c \
	cli/annotate.c cli/compare.c cli/compare_html.c cli/profile.c cli/report_compat.c cli/translate.c cli/translate_export.c cli/options.c cli/report_args.c cli/report_opts.c
CLI_SRCS += cli/collect_stop.c
CLI_SRCS += cli/timechart.c
CLI_SRCS += cli/log.c cli/collect_compat.c
CLI_SRCS += cli/suggest.c cli/info_lists.c cli/info_views.c cli/info_pmu.c cli/uprof_refused.c cli/pcm_words.c cli/pcm_refused.c
# uprof pcm hreport and the run file it reads beside -O's CSV
CLI_SRCS += cli/pcm_runfile.c cli/pcm_hreport.c
UPROF := $(BUILD)/bin/uprof
$(UPROF): $(call objs,$(CLI_SRCS)) $(TIMECHART_LIB) $(TOOL_LIB) $(JOB_LIB) $(EXPORT_LIB) $(REPORT_LIB) $(UNWIND_LIB) $(OPENMP_LIB) $(ANNOTATE_LIB) $(SYMBOLS_LIB) $(SAMPLER_LIB) $(PMC_LIB) $(SESSION_LIB) $(LAUNCHER_LIB) $(METRIC_LIB) $(UTIL_LIB) $(ARCH_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -linih -lm -lrt -pthread $(REPORT_LDLIBS) $(EXPORT_LDLIBS) $(PMC_LDLIBS) $(TOOL_LDLIBS)
BINS += $(UPROF)
