# libFuzzer targets (clang only): `make fuzz` builds them into $(BUILD)/fuzz/.
# Each is compiled together with the sources it fuzzes, never with the gcc objects.
# How to run them: fuzz/README.md.
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Ilib -I. -D_GNU_SOURCE
FUZZ_SESSION_SRCS := $(wildcard lib/session/*.c)
FUZZ_BINS := $(BUILD)/fuzz/fuzz_samples_reader $(BUILD)/fuzz/fuzz_session_ini

$(BUILD)/fuzz/fuzz_samples_reader: fuzz/fuzz_samples_reader.c $(FUZZ_SESSION_SRCS) lib/session/session.h lib/session/internal.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_samples_reader.c $(FUZZ_SESSION_SRCS)

$(BUILD)/fuzz/fuzz_session_ini: fuzz/fuzz_session_ini.c $(FUZZ_SESSION_SRCS) lib/session/session.h lib/session/internal.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_session_ini.c $(FUZZ_SESSION_SRCS)

fuzz: $(FUZZ_BINS)
