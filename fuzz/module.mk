# libFuzzer targets (clang only): `make fuzz` builds them into $(BUILD)/fuzz/.
# Never linked with the gcc objects: every source a target needs is compiled ONCE with clang
# and the sanitizers into $(BUILD)/fuzzobj/ and shared by all the targets that use it (each
# target used to recompile lib/session whole, 23 times a build). How to run them:
# fuzz/README.md.
FUZZ_CC ?= clang
FUZZ_CPPFLAGS := -Iinclude -Ilib -I. -D_GNU_SOURCE -DUPROF_VERSION='"fuzz"'
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined $(FUZZ_CPPFLAGS)
FUZZ_OBJ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_CPPFLAGS) -MMD -MP
FUZZ_OBJ := $(BUILD)/fuzzobj
fuzz_objs = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(1))
$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_OBJ_FLAGS) -c -o $@ $<
-include $(shell find $(FUZZ_OBJ) -name '*.d' 2>/dev/null)

# $(call fuzz_target,NAME,SOURCES,LDLIBS): $(BUILD)/fuzz/NAME from fuzz/NAME.c and SOURCES
define fuzz_target
FUZZ_BINS += $(BUILD)/fuzz/$(1)
$(BUILD)/fuzz/$(1): $(call fuzz_objs,fuzz/$(1).c $(2))
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CC) $$(FUZZ_FLAGS) -o $$@ $$^ $(3)
endef

FUZZ_SESSION_SRCS := $(SESSION_SRCS)
FUZZ_BINS :=
$(eval $(call fuzz_target,fuzz_samples_reader,$(FUZZ_SESSION_SRCS)))
$(eval $(call fuzz_target,fuzz_session_ini,$(FUZZ_SESSION_SRCS)))

# a perf pipe file of another tool: the facts synthesized from it, perf's metadata records
$(eval $(call fuzz_target,fuzz_foreign,$(FUZZ_SESSION_SRCS),))

# every perf record decoder of lib/session's codec, one record at a time, with round trips
$(eval $(call fuzz_target,fuzz_records,$(FUZZ_SESSION_SRCS),))

# tasks files, pauses.csv, and the profiler's reading of a control page
$(eval $(call fuzz_target,fuzz_tasks_reader,$(FUZZ_SESSION_SRCS),))
$(eval $(call fuzz_target,fuzz_pauses,$(FUZZ_SESSION_SRCS),))
FUZZ_CTLPAGE_SRCS := lib/sampler/ctlpage.c lib/sampler/pageguard.c lib/sampler/proc_uid.c \
	lib/sampler/pausegap.c \
	lib/pmc/cpus.c
$(eval $(call fuzz_target,fuzz_ctlpage,$(FUZZ_CTLPAGE_SRCS),-lrt -pthread))

# lib/pmc's event-spec parser (with libpfm4), and config files with their formulas
FUZZ_PMC_SRCS := $(PMC_SRCS) $(ARCH_SRC)
$(eval $(call fuzz_target,fuzz_event_spec,$(FUZZ_PMC_SRCS),-lpfm -lm))
$(eval $(call fuzz_target,fuzz_config,lib/metric/config.c lib/metric/expr.c,-linih -lm))

# call stacks: callchain, user registers and stack copies in samples; the --call-graph spec
$(eval $(call fuzz_target,fuzz_callchain,$(FUZZ_SESSION_SRCS) lib/pmc/callchain.c $(ARCH_SRC),))

# lib/symbols' reading of call frame information (.eh_frame/.debug_frame FDEs)
# PLT stubs named from a whole ELF file (lib/symbols/plt.c)
$(eval $(call fuzz_target,fuzz_plt,lib/symbols/plt.c,-lelf))
$(eval $(call fuzz_target,fuzz_fdes,lib/symbols/fdes.c,-ldw -lelf))

# report --kallsyms FILE: the kernel symbol list parser
$(eval $(call fuzz_target,fuzz_kallsyms,lib/symbols/kallsyms.c,))

# report's matching of a tasks file's records (docs/DESIGN.md §6) and the pause arbitration
FUZZ_TASKMATCH_SRCS := lib/report/taskmatch.c lib/util/hash.c lib/report/pauses.c \
	lib/util/strmap.c
$(eval $(call fuzz_target,fuzz_taskmatch,$(FUZZ_SESSION_SRCS) $(FUZZ_TASKMATCH_SRCS),))
# the MPI job directory's job.ini
$(eval $(call fuzz_target,fuzz_job_ini,$(FUZZ_SESSION_SRCS),))
# report's reading of perf's JIT maps, /tmp/perf-<pid>.map (any user may write one)
$(eval $(call fuzz_target,fuzz_perfmap,lib/symbols/perfmap.c,))
# report's reading of perf's jitdump files, jit-<pid>.dump (binary a JIT wrote)
$(eval $(call fuzz_target,fuzz_jitdump,lib/symbols/jitdump.c lib/symbols/perfmap.c lib/util/hash.c lib/util/strmap.c,))

# mpi/<pid>.mpi, what lib/mpi's PMPI interposer wrote in a rank
$(eval $(call fuzz_target,fuzz_mpi,$(FUZZ_SESSION_SRCS),))
# mpi/<pid>.mpiev, its events of every call under --trace mpi=full
$(eval $(call fuzz_target,fuzz_mpi_events,$(FUZZ_SESSION_SRCS),))

# the OMPT tool's openmp/<pid>.ompt files
# and the report's reading of their target and device records (no libdw needed)
FUZZ_OMPT_REPORT := lib/openmp/openmp_target.c lib/openmp/openmp_sites.c lib/openmp/openmp_window.c \
	lib/openmp/openmp_waits.c lib/util/hash.c \
	lib/util/strmap.c
$(eval $(call fuzz_target,fuzz_ompt,$(FUZZ_SESSION_SRCS) $(FUZZ_OMPT_REPORT),))

# Function Detail Data: source files split into lines, a module's code disassembled
$(eval $(call fuzz_target,fuzz_annot,lib/annotate/annot_src.c $(ANNOTATE_DISASM_SRCS),$(ANNOTATE_DISASM_LDLIBS)))

# translated.bin (uprof translate's stacks), parsed, looked up and written back
$(eval $(call fuzz_target,fuzz_translated,lib/unwind/translated.c,))

# the roofline file (uprof pcm roofline -o, read back by -i), with write-back round trips
$(eval $(call fuzz_target,fuzz_roofline,lib/metric/roofline.c lib/util/escape.c,-lm))

# pcm's cumulative table (uprof pcm compare's two inputs)
$(eval $(call fuzz_target,fuzz_pcm_table,lib/metric/pcm_table.c lib/metric/reader.c lib/util/escape.c,-lm))
# pcm's timeseries and run file (uprof pcm hreport's inputs beside the cumulative table)
$(eval $(call fuzz_target,fuzz_pcm_series,lib/metric/pcm_series.c lib/metric/reader.c lib/util/escape.c,-lm))

# leafstack.data: fp samples' leaf copies (lib/session/leafstack.c), decode and join
$(eval $(call fuzz_target,fuzz_leafstack,$(FUZZ_SESSION_SRCS),))
fuzz: $(FUZZ_BINS)

# --trace os: the session's tracepoints.format and raw tracepoint records (lib/ostrace)
$(FUZZ_OBJ)/lib/ostrace/syscalls.o: FUZZ_OBJ_FLAGS += -I$(OSTRACE_GEN)
$(FUZZ_OBJ)/lib/ostrace/syscalls.o: $(OSTRACE_GEN)/ost_sysnames.h
$(eval $(call fuzz_target,fuzz_ostrace,$(OSTRACE_SRCS) lib/util/hash.c,))
