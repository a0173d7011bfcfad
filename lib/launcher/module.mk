LAUNCHER_SRCS := lib/launcher/env.c lib/launcher/pmi.c lib/launcher/family.c lib/launcher/family_interp.c
LAUNCHER_LIB := $(BUILD)/lib/libuprof_launcher.a
$(LAUNCHER_LIB): $(call objs,$(LAUNCHER_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(LAUNCHER_LIB)
