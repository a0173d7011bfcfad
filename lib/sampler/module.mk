SAMPLER_SRCS := lib/sampler/cpus.c lib/sampler/ring.c lib/sampler/events.c \
	lib/sampler/launch.c lib/sampler/vdso.c lib/sampler/ctlpage.c lib/sampler/ctlpage_open.c lib/sampler/pageguard.c \
	lib/sampler/proc.c lib/sampler/proc_uid.c \
	lib/sampler/pausegap.c lib/sampler/pagecodes.c lib/sampler/pageset.c \
	lib/sampler/pageset_find.c lib/sampler/pageset_pauses.c lib/sampler/pageset_chan.c \
	lib/sampler/pages_stale.c
SAMPLER_LIB := $(BUILD)/lib/libuprof_sampler.a
$(SAMPLER_LIB): $(call objs,$(SAMPLER_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(SAMPLER_LIB)
