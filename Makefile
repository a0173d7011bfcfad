# uprof: one non-recursive GNU Makefile. Modules add themselves through */module.mk.
#   make                 build/bin/uprof and the libraries
#   make check           unit + end-to-end tests; last line "N passed, N failed, N skipped"
#   make check T=cli,test_session  only these test files (e2e script or unit binary names)
#   make check J=1       one test file at a time (default: as many as CPUs; J=N, or
#                        UPROF_TEST_JOBS=N in the environment); "# run-alone:" files run alone
#                        each file may run UPROF_TEST_TIMEOUT s (default 300 unit, 900 e2e)
#   make check SANITIZE=1  the same under ASan+UBSan (separate build dir)
#   make demo            profile the bundled example and show the report
#   make fuzz            libFuzzer targets (clang) in build/fuzz/
#   make install PREFIX=/usr/local
SHELL := /bin/bash
.DEFAULT_GOAL := all
VERSION := 0.1.0
PREFIX ?= /usr/local

CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
BUILD ?= build
ifeq ($(SANITIZE),1)
BUILD := build/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
endif

CPPFLAGS += -Iinclude -Ilib -I. -D_GNU_SOURCE -DUPROF_VERSION='"$(VERSION)"'
CFLAGS ?= -O2 -g
# a pointer where an fd (int) goes is an error, not a warning: call sites by path and by
# directory fd look alike, and gcc 12 only warns
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-sign-compare -Wno-format-truncation -Werror=int-conversion -Werror=incompatible-pointer-types -Werror=implicit-function-declaration -fno-omit-frame-pointer -MMD -MP $(SANFLAGS)
LDFLAGS += $(SANFLAGS)

DEPS_OK := $(shell scripts/install-deps.sh --check >/dev/null 2>&1 && echo yes)
ifneq ($(DEPS_OK),yes)
$(info uprof: installing missing build dependencies (scripts/install-deps.sh))
$(shell scripts/install-deps.sh >&2)
endif

OBJ = $(BUILD)/obj
objs = $(patsubst %.c,$(OBJ)/%.o,$(1))

LIBS :=
BINS :=
UNIT_TESTS :=
CLEAN :=

include lib/util/module.mk
include lib/session/module.mk
include lib/metric/module.mk
include lib/launcher/module.mk
include lib/arch/module.mk
include lib/pmc/module.mk
include lib/sampler/module.mk
include lib/symbols/module.mk
include lib/unwind/module.mk
include lib/openmp/module.mk
include lib/annotate/module.mk
include lib/report/module.mk
include lib/ostrace/module.mk
include lib/export/module.mk
include lib/job/module.mk
include lib/tool/module.mk
include lib/instrument/module.mk
include lib/timechart/module.mk
include cli/module.mk
include tests/module.mk
include tests/targets/module.mk
include lib/mpi/module.mk
include tests/unit/module.mk
include fuzz/module.mk

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

CONFIGS := $(wildcard configs/*.ini configs/pcm/*.ini configs/pcm/zen*/*.ini)
BUILD_CONFIGS := $(patsubst configs/%,$(BUILD)/share/uprof/configs/%,$(CONFIGS))
$(BUILD)/share/uprof/configs/%.ini: configs/%.ini
	@mkdir -p $(dir $@)
	cp $< $@

all: $(BINS) $(LIBS) $(BUILD_CONFIGS)

# the fuzz targets too, when clang is there (tests/e2e/fuzz_corpus.sh runs their seeds)
CHECK_FUZZ := $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),$(FUZZ_BINS))
check: all $(UNIT_TESTS) $(TEST_TARGETS) $(CHECK_FUZZ)
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) T="$(T)" $(if $(J),UPROF_TEST_JOBS=$(J)) tests/run-all.sh $(UNIT_TESTS)

demo: all $(BUILD)/targets/demo
	@BUILD=$(BUILD) scripts/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/uprof/configs $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/lib
	install -m 755 $(BUILD)/bin/uprof $(DESTDIR)$(PREFIX)/bin/uprof
	install -d $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/*.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	install -m 644 configs/*.ini $(DESTDIR)$(PREFIX)/share/uprof/configs/
	install -d $(DESTDIR)$(PREFIX)/share/uprof/configs/pcm
	install -m 644 configs/pcm/*.ini $(DESTDIR)$(PREFIX)/share/uprof/configs/pcm/
	for z in configs/pcm/zen*; do \
		install -d $(DESTDIR)$(PREFIX)/share/uprof/configs/pcm/$${z##*/} && \
		install -m 644 $$z/*.ini $(DESTDIR)$(PREFIX)/share/uprof/configs/pcm/$${z##*/}/ || exit 1; \
	done
	install -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/ 2>/dev/null || true
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	for pc in pkgconfig/*.pc.in; do \
		sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' "$$pc" \
			>$(DESTDIR)$(PREFIX)/lib/pkgconfig/$$(basename "$$pc" .in) && \
		chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$(basename "$$pc" .in) || exit 1; \
	done
	install -m 755 $(INSTR_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(INSTR_A) $(DESTDIR)$(PREFIX)/lib/
	install -d $(DESTDIR)$(PREFIX)/lib/python $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 python/amd_instrument.py $(DESTDIR)$(PREFIX)/lib/python/
	install -m 644 man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 scripts/uprof-completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/uprof
	@# the MPI interposers of the families built: collect --trace mpi finds them in ../lib
	for so in $(MPI_LIBS); do install -m 755 "$$so" $(DESTDIR)$(PREFIX)/lib/ || exit 1; done
	@# the example programs, to copy and build against the installed uprof (examples/README.md)
	install -d $(DESTDIR)$(PREFIX)/share/uprof/examples
	cp -R examples/. $(DESTDIR)$(PREFIX)/share/uprof/examples/
	chmod -R u+rwX,go+rX,go-w $(DESTDIR)$(PREFIX)/share/uprof/examples

clean:
	rm -rf build

.PHONY: all check demo install clean fuzz
.DELETE_ON_ERROR:
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
