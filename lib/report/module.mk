REPORT_SRCS := lib/report/model.c lib/report/load.c \
	lib/report/aggregate.c lib/report/rows.c lib/report/csv.c lib/report/pauses.c lib/report/tasks.c lib/report/taskmatch.c lib/report/events.c lib/report/callgraph_thread.c \
	lib/report/filter.c \
	lib/report/programs.c lib/report/walk.c \
	lib/report/job.c lib/report/job_csv.c lib/report/job_mpi.c \
	lib/report/rates.c lib/report/foreign.c \
	lib/report/openmp.c lib/report/openmp_csv.c lib/report/openmp_target.c lib/report/openmp_sites.c
REPORT_SRCS += lib/report/stacks.c lib/report/leafg.c lib/report/leafg_join.c lib/report/unwind.c lib/report/callgraph.c lib/report/callgraph_inline.c \
	lib/report/export.c lib/report/export_folded.c lib/report/export_flamegraph.c lib/report/export_perfetto.c
REPORT_SRCS += lib/report/annotate.c lib/report/annot_lines.c lib/report/annot_src.c \
	lib/report/annot_elf.c lib/report/annot_csv.c lib/report/compare.c
REPORT_SRCS += lib/report/translated.c lib/report/translated_cache.c
# the assembly view's disassembler, one file per architecture as lib/arch chooses its own
# (ARCH_MACHINE, lib/arch/module.mk): Zydis on x86-64 (disasm.h says why), none elsewhere
ifeq ($(ARCH_MACHINE),x86_64)
REPORT_SRCS += lib/report/disasm_x86_64.c
REPORT_DISASM_LDLIBS := -lZydis
else
REPORT_SRCS += lib/report/disasm_generic.c
endif
REPORT_LIB := $(BUILD)/lib/libuprof_report.a
REPORT_LDLIBS := $(SYMBOLS_LDLIBS) $(REPORT_DISASM_LDLIBS)
$(REPORT_LIB): $(call objs,$(REPORT_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: no stale member of a file moved away
	$(AR) rcs $@ $^
LIBS += $(REPORT_LIB)
