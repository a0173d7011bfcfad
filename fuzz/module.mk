# libFuzzer targets (clang only): `make fuzz` builds them into $(BUILD)/fuzz/.
# Each is compiled together with the sources it fuzzes, never with the gcc objects.
# How to run them: fuzz/README.md.
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Ilib -I. -D_GNU_SOURCE
FUZZ_SESSION_SRCS := $(SESSION_SRCS)
FUZZ_SESSION_HDRS := $(wildcard lib/session/*.h)
FUZZ_BINS := $(BUILD)/fuzz/fuzz_samples_reader $(BUILD)/fuzz/fuzz_session_ini

$(BUILD)/fuzz/fuzz_samples_reader: fuzz/fuzz_samples_reader.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_samples_reader.c $(FUZZ_SESSION_SRCS)

$(BUILD)/fuzz/fuzz_session_ini: fuzz/fuzz_session_ini.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_session_ini.c $(FUZZ_SESSION_SRCS)

fuzz: $(FUZZ_BINS)

# a perf pipe file of another tool: the facts synthesized from it, perf's metadata records
FUZZ_BINS += $(BUILD)/fuzz/fuzz_foreign
$(BUILD)/fuzz/fuzz_foreign: fuzz/fuzz_foreign.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_foreign.c $(FUZZ_SESSION_SRCS)

# every perf record decoder of lib/session's codec, one record at a time, with round trips
FUZZ_BINS += $(BUILD)/fuzz/fuzz_records
$(BUILD)/fuzz/fuzz_records: fuzz/fuzz_records.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_records.c $(FUZZ_SESSION_SRCS)
fuzz: $(FUZZ_BINS)

# tasks files, pauses.csv, and the profiler's reading of a control page
FUZZ_BINS += $(BUILD)/fuzz/fuzz_tasks_reader $(BUILD)/fuzz/fuzz_pauses $(BUILD)/fuzz/fuzz_ctlpage
$(BUILD)/fuzz/fuzz_tasks_reader: fuzz/fuzz_tasks_reader.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_tasks_reader.c $(FUZZ_SESSION_SRCS)
$(BUILD)/fuzz/fuzz_pauses: fuzz/fuzz_pauses.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_pauses.c $(FUZZ_SESSION_SRCS)
FUZZ_CTLPAGE_SRCS := lib/sampler/ctlpage.c lib/sampler/pageguard.c lib/sampler/proc_uid.c \
	lib/sampler/pausegap.c \
	lib/pmc/cpus.c
$(BUILD)/fuzz/fuzz_ctlpage: fuzz/fuzz_ctlpage.c $(FUZZ_CTLPAGE_SRCS) lib/instrument/ctlpage.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_ctlpage.c $(FUZZ_CTLPAGE_SRCS) -lrt -pthread
fuzz: $(FUZZ_BINS)

# lib/pmc's event-spec parser (with libpfm4), and config files with their formulas
FUZZ_PMC_SRCS := $(PMC_SRCS) $(ARCH_SRC)
FUZZ_BINS += $(BUILD)/fuzz/fuzz_event_spec $(BUILD)/fuzz/fuzz_config
$(BUILD)/fuzz/fuzz_event_spec: fuzz/fuzz_event_spec.c $(FUZZ_PMC_SRCS) lib/pmc/pmc.h lib/pmc/internal.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_event_spec.c $(FUZZ_PMC_SRCS) -lpfm -lm
# (cli/util.c: config.c finds the configs beside the executable through it)
$(BUILD)/fuzz/fuzz_config: fuzz/fuzz_config.c cli/config.c cli/util.c lib/metric/expr.c cli/cli.h lib/pmc/pmc.h lib/metric/metric.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DUPROF_VERSION='"fuzz"' -o $@ fuzz/fuzz_config.c cli/config.c cli/util.c lib/metric/expr.c -linih -lm
fuzz: $(FUZZ_BINS)

# call stacks: callchain, user registers and stack copies in samples; the --call-graph spec
FUZZ_BINS += $(BUILD)/fuzz/fuzz_callchain
$(BUILD)/fuzz/fuzz_callchain: fuzz/fuzz_callchain.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS) lib/pmc/callchain.c lib/pmc/pmc.h lib/arch/arch.h $(ARCH_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_callchain.c $(FUZZ_SESSION_SRCS) lib/pmc/callchain.c $(ARCH_SRC)
fuzz: $(FUZZ_BINS)

# lib/symbols' reading of call frame information (.eh_frame/.debug_frame FDEs)
# PLT stubs named from a whole ELF file (lib/symbols/plt.c)
FUZZ_BINS += $(BUILD)/fuzz/fuzz_plt
$(BUILD)/fuzz/fuzz_plt: fuzz/fuzz_plt.c lib/symbols/plt.c lib/symbols/plt.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_plt.c lib/symbols/plt.c -lelf
FUZZ_BINS += $(BUILD)/fuzz/fuzz_fdes
$(BUILD)/fuzz/fuzz_fdes: fuzz/fuzz_fdes.c lib/symbols/fdes.c lib/symbols/fdes.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_fdes.c lib/symbols/fdes.c -ldw -lelf
fuzz: $(FUZZ_BINS)

# report --kallsyms FILE: the kernel symbol list parser
FUZZ_BINS += $(BUILD)/fuzz/fuzz_kallsyms
$(BUILD)/fuzz/fuzz_kallsyms: fuzz/fuzz_kallsyms.c lib/symbols/kallsyms.c lib/symbols/kallsyms.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_kallsyms.c lib/symbols/kallsyms.c
fuzz: $(FUZZ_BINS)

# report's matching of a tasks file's records (docs/DESIGN.md §6) and the pause arbitration
FUZZ_TASKMATCH_SRCS := lib/report/taskmatch.c lib/util/hash.c lib/report/pauses.c \
	lib/util/strmap.c
FUZZ_BINS += $(BUILD)/fuzz/fuzz_taskmatch
$(BUILD)/fuzz/fuzz_taskmatch: fuzz/fuzz_taskmatch.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS) $(FUZZ_TASKMATCH_SRCS) lib/report/taskmatch.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_taskmatch.c $(FUZZ_SESSION_SRCS) $(FUZZ_TASKMATCH_SRCS)
fuzz: $(FUZZ_BINS)
# the MPI job directory's job.ini
FUZZ_BINS += $(BUILD)/fuzz/fuzz_job_ini
$(BUILD)/fuzz/fuzz_job_ini: fuzz/fuzz_job_ini.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_job_ini.c $(FUZZ_SESSION_SRCS)
fuzz: $(FUZZ_BINS)
# report's reading of perf's JIT maps, /tmp/perf-<pid>.map (any user may write one)
FUZZ_BINS += $(BUILD)/fuzz/fuzz_perfmap
$(BUILD)/fuzz/fuzz_perfmap: fuzz/fuzz_perfmap.c lib/symbols/perfmap.c lib/symbols/perfmap.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_perfmap.c lib/symbols/perfmap.c
fuzz: $(FUZZ_BINS)
# report's reading of perf's jitdump files, jit-<pid>.dump (binary a JIT wrote)
FUZZ_BINS += $(BUILD)/fuzz/fuzz_jitdump
$(BUILD)/fuzz/fuzz_jitdump: fuzz/fuzz_jitdump.c lib/symbols/jitdump.c lib/symbols/jitdump.h \
		lib/symbols/perfmap.c lib/symbols/perfmap.h lib/util/hash.c lib/util/strmap.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_jitdump.c lib/symbols/jitdump.c lib/symbols/perfmap.c \
		lib/util/hash.c lib/util/strmap.c
fuzz: $(FUZZ_BINS)

# mpi/<pid>.mpi, what lib/mpi's PMPI interposer wrote in a rank
FUZZ_BINS += $(BUILD)/fuzz/fuzz_mpi
$(BUILD)/fuzz/fuzz_mpi: fuzz/fuzz_mpi.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_mpi.c $(FUZZ_SESSION_SRCS)
fuzz: $(FUZZ_BINS)

# the OMPT tool's openmp/<pid>.ompt files
FUZZ_BINS += $(BUILD)/fuzz/fuzz_ompt
# and the report's reading of their target and device records (no libdw needed)
FUZZ_OMPT_REPORT := lib/openmp/openmp_target.c lib/openmp/openmp_sites.c lib/util/hash.c \
	lib/util/strmap.c
$(BUILD)/fuzz/fuzz_ompt: fuzz/fuzz_ompt.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS) $(FUZZ_OMPT_REPORT) \
		lib/openmp/openmp.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_ompt.c $(FUZZ_SESSION_SRCS) $(FUZZ_OMPT_REPORT)
fuzz: $(FUZZ_BINS)

# Function Detail Data: source files split into lines, a module's code disassembled
FUZZ_BINS += $(BUILD)/fuzz/fuzz_annot
$(BUILD)/fuzz/fuzz_annot: fuzz/fuzz_annot.c lib/annotate/annot_src.c $(ANNOTATE_DISASM_SRCS) \
		lib/annotate/annotate.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_annot.c lib/annotate/annot_src.c \
		$(ANNOTATE_DISASM_SRCS) $(ANNOTATE_DISASM_LDLIBS)
fuzz: $(FUZZ_BINS)

# translated.bin (uprof translate's stacks), parsed, looked up and written back
FUZZ_BINS += $(BUILD)/fuzz/fuzz_translated
$(BUILD)/fuzz/fuzz_translated: fuzz/fuzz_translated.c lib/unwind/translated.c lib/unwind/unwind.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_translated.c lib/unwind/translated.c

# the roofline file (uprof pcm roofline -o, read back by -i), with write-back round trips
FUZZ_BINS += $(BUILD)/fuzz/fuzz_roofline
$(BUILD)/fuzz/fuzz_roofline: fuzz/fuzz_roofline.c lib/metric/roofline.c lib/metric/metric.h lib/util/escape.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_roofline.c lib/metric/roofline.c lib/util/escape.c -lm

# leafstack.data: fp samples' leaf copies (lib/session/leafstack.c), decode and join
FUZZ_BINS += $(BUILD)/fuzz/fuzz_leafstack
$(BUILD)/fuzz/fuzz_leafstack: fuzz/fuzz_leafstack.c $(FUZZ_SESSION_SRCS) $(FUZZ_SESSION_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_leafstack.c $(FUZZ_SESSION_SRCS)
fuzz: $(FUZZ_BINS)
