# lib/mpi: what is built against an MPI family's headers, for each family present.
#   Open MPI: mpicc (Debian's openmpi-bin / libopenmpi-dev)
#   MPICH:    mpicc.mpich (Debian's mpich)
# A family whose compiler wrapper is missing is skipped, and make says so once.
MPICC_OPENMPI := $(shell command -v mpicc.openmpi 2>/dev/null || { mpicc -showme:version >/dev/null 2>&1 && command -v mpicc; })
MPICC_MPICH := $(shell command -v mpicc.mpich 2>/dev/null)
MPI_FAMILIES := $(if $(MPICC_OPENMPI),openmpi) $(if $(MPICC_MPICH),mpich)
MPI_SKIPPED := $(filter-out $(MPI_FAMILIES),openmpi mpich)
ifneq ($(strip $(MPI_SKIPPED)),)
$(info uprof: no $(MPI_SKIPPED) compiler wrapper (mpicc / mpicc.mpich): its MPI library and test programs are skipped)
endif

# the PMPI interposer: one source set, one library per family, against its own mpi.h
# (and the side-file container's encoder, which needs libc alone: one writer for every side file)
MPI_SRCS := lib/mpi/uprof_mpi.c lib/mpi/uprof_mpi_p2p.c lib/mpi/uprof_mpi_coll.c lib/mpi/uprof_mpi_fbind.c lib/mpi/uprof_mpi_fwait.c \
	lib/mpi/uprof_mpi_noinit.c lib/mpi/uprof_mpi_events.c \
	lib/mpi/uprof_mpi_sites.c lib/mpi/uprof_mpi_io.c lib/mpi/uprof_mpi_comm.c lib/mpi/uprof_mpi_rma.c lib/mpi/uprof_mpi_large.c \
	lib/session/container.c
MPI_HDRS := lib/mpi/internal.h lib/mpi/wrap.h lib/mpi/fbind_table.h lib/mpi/sites.h lib/mpi/funcs_more.h lib/mpi/events.h lib/session/mpi.h lib/session/mpi_sites.h lib/session/mpi_events.h lib/session/container.h lib/mpi/uprof_mpi.map
MPI_CFLAGS := -O2 -g -fPIC -std=gnu11 -Wall -Wextra -Wno-sign-compare -Ilib -D_GNU_SOURCE
MPI_LIB_openmpi := $(BUILD)/lib/libuprof_mpi_openmpi.so
MPI_LIB_mpich := $(BUILD)/lib/libuprof_mpi_mpich.so
$(MPI_LIB_openmpi): $(MPI_SRCS) $(MPI_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC_OPENMPI) $(MPI_CFLAGS) -DUPROF_MPI_FAMILY=SES_MPI_OPENMPI -shared \
		-Wl,--version-script=lib/mpi/uprof_mpi.map -o $@ $(MPI_SRCS) -ldl
$(MPI_LIB_mpich): $(MPI_SRCS) $(MPI_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) $(MPI_CFLAGS) -DUPROF_MPI_FAMILY=SES_MPI_MPICH -shared \
		-Wl,--version-script=lib/mpi/uprof_mpi.map -o $@ $(MPI_SRCS) -ldl
MPI_LIBS := $(foreach f,$(MPI_FAMILIES),$(MPI_LIB_$(f)))
LIBS += $(MPI_LIBS)

# test programs, one build per family: $(TGT)/<name>.<family>
MPI_TARGET_NAMES := mpi_spin mpi_p2p mpi_trace mpi_trace_mt mpi_persist
# ranks that die: one SIGKILLed, one exit(3) (tests/e2e/mpi_die.sh)
MPI_TARGET_NAMES += mpi_die
MPI_TARGET_NAMES += mpi_sites mpi_many_sites mpi_sites_mt # call sites, MPI-IO, RMA: tests/e2e/mpi_sites.sh
$(TGT)/%.openmpi: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(MPICC_OPENMPI) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/%.mpich: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(foreach f,$(MPI_FAMILIES),$(patsubst %,$(TGT)/%.$(f),$(MPI_TARGET_NAMES)))
# MPI 4.0's large-count calls (MPI_Send_c, ...): MPICH 4.0's alone (tests/e2e/mpi_large.sh)
TEST_TARGETS += $(if $(MPICC_MPICH),$(TGT)/mpi_large.mpich)
# the hybrid MPI + OpenMP one: the wrapper around clang (LLVM libomp, which has OMPT),
# where clang and libomp are there (HAVE_OMP, tests/targets/module.mk)
$(TGT)/mpi_omp.openmpi: tests/targets/mpi_omp.c
	@mkdir -p $(dir $@)
	OMPI_CC=clang $(MPICC_OPENMPI) $(TARGET_CFLAGS) -fopenmp -o $@ $<
$(TGT)/mpi_omp.mpich: tests/targets/mpi_omp.c
	@mkdir -p $(dir $@)
	MPICH_CC=clang $(MPICC_MPICH) $(TARGET_CFLAGS) -fopenmp -o $@ $<
TEST_TARGETS += $(if $(HAVE_OMP),$(foreach f,$(MPI_FAMILIES),$(TGT)/mpi_omp.$(f)))
# the Fortran one (mpif.h), where the family's mpif90 is there too
MPIF90_OPENMPI := $(if $(MPICC_OPENMPI),$(shell command -v mpif90.openmpi 2>/dev/null || command -v mpif90 2>/dev/null))
MPIF90_MPICH := $(if $(MPICC_MPICH),$(shell command -v mpif90.mpich 2>/dev/null))
$(TGT)/mpi_fortran.openmpi: tests/targets/mpi_fortran.f90
	@mkdir -p $(dir $@)
	$(MPIF90_OPENMPI) -O2 -g -J $(dir $@) -o $@ $<
$(TGT)/mpi_fortran.mpich: tests/targets/mpi_fortran.f90
	@mkdir -p $(dir $@)
	$(MPIF90_MPICH) -O2 -g -fallow-argument-mismatch -J $(dir $@) -o $@ $<
TEST_TARGETS += $(if $(MPIF90_OPENMPI),$(TGT)/mpi_fortran.openmpi) $(if $(MPIF90_MPICH),$(TGT)/mpi_fortran.mpich)
# one pattern through the Fortran modules: `use mpi_f08` (-DUSE_F08) and `use mpi`
# (a module directory of its own each: the program writes no module, but -J must not race)
$(TGT)/mpi_f08.%: tests/targets/mpi_fbind.F90
	@mkdir -p $@.mod
	$(MPIF90_$(call MPI_UC,$*)) -O2 -g -DUSE_F08 -J $@.mod -o $@ $<
$(TGT)/mpi_usempi.%: tests/targets/mpi_fbind.F90
	@mkdir -p $@.mod
	$(MPIF90_$(call MPI_UC,$*)) -O2 -g -J $@.mod -o $@ $<
MPI_UC = $(if $(filter openmpi,$(1)),OPENMPI,MPICH)
TEST_TARGETS += $(foreach f,$(if $(MPIF90_OPENMPI),openmpi) $(if $(MPIF90_MPICH),mpich),$(TGT)/mpi_f08.$(f) $(TGT)/mpi_usempi.$(f))

# make install: the interposers beside libAMDProfileController (collect finds them in
# <prefix>/lib, next to <prefix>/bin/uprof)
install-mpi: $(MPI_LIBS)
	install -d $(DESTDIR)$(PREFIX)/lib
	$(if $(MPI_LIBS),install -m 755 $(MPI_LIBS) $(DESTDIR)$(PREFIX)/lib/)
install: install-mpi
.PHONY: install-mpi
