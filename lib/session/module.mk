SESSION_SRCS := lib/session/info.c lib/session/writer.c lib/session/reader.c \
	lib/session/tasks.c lib/session/openmp.c lib/session/pauses.c \
	lib/session/record.c lib/session/record_enc.c lib/session/record_meta.c \
	lib/session/foreign.c \
	lib/session/dir.c lib/session/input.c lib/session/job.c lib/session/order.c \
	lib/session/mpi.c lib/session/mpi_events.c lib/session/leafstack.c lib/session/leafstack_split.c \
	lib/session/container.c
# The session is written beneath directory fds (lib/util/dirfd.c, docs/DESIGN.md §4): the
# archive carries that one object of lib/util, so every program that links lib/session
# links it (util's own archive has it too; the linker takes one copy).
SESSION_SRCS += lib/util/dirfd.c lib/util/tmpfile.c
SESSION_SRCS += lib/session/mpi_sites.c # mpi/<pid>.mpi's call-site records
SESSION_LIB := $(BUILD)/lib/libuprof_session.a
$(SESSION_LIB): $(call objs,$(SESSION_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ # rebuilt whole: a member of a file renamed away (leafsplit.o) stays otherwise
	$(AR) rcs $@ $^
LIBS += $(SESSION_LIB)
