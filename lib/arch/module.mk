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
# The roofline kernels measure the machine: under SANITIZE=1 they are still built without
# the sanitizers, or they measure ASan's shadow checks (L1, L2 and L3 reads then ran at one
# rate, 53/55/52 GB/s, and roofline.sh's cache-order check failed)
$(call objs,lib/arch/roofline_x86_64.c lib/arch/roofline_generic.c): CFLAGS := $(filter-out $(SANFLAGS),$(CFLAGS))
