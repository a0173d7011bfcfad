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

# test programs, one build per family: $(TGT)/<name>.<family>
MPI_TARGET_NAMES := mpi_spin
$(TGT)/%.openmpi: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(MPICC_OPENMPI) $(TARGET_CFLAGS) -o $@ $<
$(TGT)/%.mpich: tests/targets/%.c
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) $(TARGET_CFLAGS) -o $@ $<
TEST_TARGETS += $(foreach f,$(MPI_FAMILIES),$(patsubst %,$(TGT)/%.$(f),$(MPI_TARGET_NAMES)))
