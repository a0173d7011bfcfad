# libAMDProfileController: shared (.so, versioned symbols, hidden internals) and static.
INSTR_SRCS := lib/instrument/api.c lib/instrument/page.c
INSTR_CFLAGS := -fPIC -fvisibility=hidden
INSTR_OBJS := $(patsubst %.c,$(OBJ)/pic/%.o,$(INSTR_SRCS))
INSTR_SO := $(BUILD)/lib/libAMDProfileController.so
INSTR_A := $(BUILD)/lib/libAMDProfileController.a
$(OBJ)/pic/lib/instrument/%.o: lib/instrument/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(INSTR_CFLAGS) -c -o $@ $<
$(INSTR_SO): $(INSTR_OBJS) lib/instrument/libAMDProfileController.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -Wl,--version-script=lib/instrument/libAMDProfileController.map \
		-Wl,-soname,libAMDProfileController.so -o $@ $(INSTR_OBJS) -lrt -pthread
$(INSTR_A): $(INSTR_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
LIBS += $(INSTR_SO) $(INSTR_A)
