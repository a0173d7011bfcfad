# One file of lib/arch, for the architecture the compiler targets (Redis's ae_*.c way).
ARCH_MACHINE := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
ARCH_SRC := $(if $(wildcard lib/arch/$(ARCH_MACHINE).c),lib/arch/$(ARCH_MACHINE).c,lib/arch/generic.c)
ARCH_LIB := $(BUILD)/lib/libuprof_arch.a
$(ARCH_LIB): $(call objs,$(ARCH_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(ARCH_LIB)
