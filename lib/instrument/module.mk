# libAMDProfileController: shared (.so, versioned symbols, hidden internals) and static.
# The .so is also the ITT collector (itt.c). It runs inside other people's programs and
# is dlopen()ed by them (ITT, Python), so it is never built with sanitizers: a sanitizer
# runtime cannot be loaded that way. tests/unit/test_itt.c compiles these sources with them.
INSTR_SRCS := lib/instrument/api.c lib/instrument/page.c lib/instrument/channel.c lib/instrument/itt.c lib/instrument/ompt.c \
	lib/instrument/ompt_chain.c lib/instrument/ompt_locks.c lib/instrument/ompt_target.c lib/instrument/ompt_loops.c lib/instrument/ompt_nest.c
INSTR_CFLAGS := -fPIC -fvisibility=hidden
INSTR_OBJS := $(patsubst %.c,$(OBJ)/pic/%.o,$(INSTR_SRCS))
# the OMPT tool for size (its callbacks stay under docs/DESIGN.md §7's 50 ns at -Os: bench/ompt.sh),
# so that the library keeps to its .text budget (tests/e2e/instrument.sh)
$(OBJ)/pic/lib/instrument/ompt.o $(OBJ)/pic/lib/instrument/ompt_chain.o $(OBJ)/pic/lib/instrument/ompt_locks.o \
	$(OBJ)/pic/lib/instrument/ompt_target.o \
	$(OBJ)/pic/lib/instrument/ompt_loops.o $(OBJ)/pic/lib/instrument/ompt_nest.o: INSTR_CFLAGS += -Os
INSTR_SO := $(BUILD)/lib/libAMDProfileController.so
INSTR_A := $(BUILD)/lib/libAMDProfileController.a
$(OBJ)/pic/lib/instrument/%.o: lib/instrument/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out $(SANFLAGS),$(CFLAGS)) $(INSTR_CFLAGS) -c -o $@ $<
$(INSTR_SO): $(INSTR_OBJS) lib/instrument/libAMDProfileController.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(filter-out $(SANFLAGS),$(LDFLAGS)) -Wl,--version-script=lib/instrument/libAMDProfileController.map \
		-Wl,-soname,libAMDProfileController.so -o $@ $(INSTR_OBJS) -lrt -pthread -ldl
$(INSTR_A): $(INSTR_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(INSTR_SO) $(INSTR_A)
