# One file of lib/arch, for the architecture the compiler targets (Redis's ae_*.c way);
# likewise its roofline kernels (roofline_generic.c: portable C for any other). The
# kernels stay out of ARCH_SRC, which fuzz targets compile in.
ARCH_MACHINE := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
ARCH_SRC := $(if $(wildcard lib/arch/$(ARCH_MACHINE).c),lib/arch/$(ARCH_MACHINE).c,lib/arch/generic.c)
ARCH_RL_SRC := $(if $(wildcard lib/arch/roofline_$(ARCH_MACHINE).c),lib/arch/roofline_$(ARCH_MACHINE).c,lib/arch/roofline_generic.c)
ARCH_LIB := $(BUILD)/lib/libuprof_arch.a
$(ARCH_LIB): $(call objs,$(ARCH_SRC) $(ARCH_RL_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(ARCH_LIB)
