PMC_SRCS := lib/pmc/timer.c
PMC_LIB := $(BUILD)/lib/libuprof_pmc.a
$(PMC_LIB): $(call objs,$(PMC_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(PMC_LIB)
