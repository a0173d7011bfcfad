SESSION_SRCS := lib/session/info.c lib/session/writer.c lib/session/reader.c \
	lib/session/tasks.c lib/session/openmp.c lib/session/pauses.c \
	lib/session/record.c lib/session/record_enc.c lib/session/record_meta.c \
	lib/session/foreign.c \
	lib/session/dir.c lib/session/input.c lib/session/job.c lib/session/order.c \
	lib/session/mpi.c lib/session/leafstack.c lib/session/leafstack_split.c \
	lib/session/container.c
SESSION_LIB := $(BUILD)/lib/libuprof_session.a
$(SESSION_LIB): $(call objs,$(SESSION_SRCS))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(SESSION_LIB)
