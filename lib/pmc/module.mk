PMC_SRCS := lib/pmc/timer.c lib/pmc/cpus.c lib/pmc/topo.c lib/pmc/pmu.c lib/pmc/predef.c \
	lib/pmc/spec.c lib/pmc/encode.c lib/pmc/attr.c lib/pmc/pfm.c lib/pmc/count.c \
	lib/pmc/evlist.c lib/pmc/explain.c lib/pmc/sys.c lib/pmc/callchain.c \
	lib/pmc/interval.c
PMC_SRCS += lib/pmc/tracepoint.c lib/pmc/uprobe.c
# pcm's metric groups evaluate lib/metric's formulas: kept out of PMC_SRCS, which the
# event-spec fuzz target links whole without lib/metric
PMC_GROUPS_SRCS := lib/pmc/groups.c lib/pmc/pcm_family.c
PMC_LIB := $(BUILD)/lib/libuprof_pmc.a
# what a program linking $(PMC_LIB) needs after it ($(METRIC_LIB) too for pmc_groups_*)
PMC_LDLIBS := -lpfm -lm
$(PMC_LIB): $(call objs,$(PMC_SRCS) $(PMC_GROUPS_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(PMC_LIB)
