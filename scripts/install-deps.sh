#!/bin/sh
# Install the Debian packages uprof needs to build and test, skipping those present.
# Usage: scripts/install-deps.sh [--check]   (--check: list missing, exit 1 if any)
# LLVM 19's OpenMP runtime (libomp-19-dev, libomp5-19) and its offload packager and linker
# wrapper (clang-tools-19) are not installed but downloaded and unpacked under build/ by
# scripts/llvm19-omp.sh: libomp-19-dev would remove libomp-dev (LLVM 14's).
# clang-19 builds the OpenMP offload tests; Open MPI and MPICH install side by side (mpicc
# and mpirun stay Open MPI's; MPICH's are mpicc.mpich and mpirun.mpich).
# debuginfod is a real server for the symbol tests (tests/e2e/symbol_paths.sh).
# libzydis-dev: the disassembler of report's assembly view (lib/annotate/annotate.h says why).
# chromium: tests/e2e/pcm_html.sh looks at pcm's report.html in it, headless.
# strace: tests/e2e/race_collect.sh checks that collect names no path inside its session.
# python3-mpi4py: tests/e2e/mpi_python.sh traces an interpreter's MPI (collect finds the
# family from the mpi4py extension python3 would import).
# libsqlite3-dev, zlib1g-dev: report --export sqlite and pprof (lib/export). golang-go
# (go tool pprof), python3-pyside2.qtsql and libqt5sql5-sqlite (the Qt SQL driver perf's
# export-to-sqlite.py needs): tests/e2e/export_data.sh reads the exports with them.
# valgrind: bench/omp_tool_instr.sh counts the OMPT tool's instructions per callback
# (callgrind), a measure of its cost that the machine's load does not move.
# firefox-esr: tests/e2e/report_html_firefox.sh loads report.html in headless Firefox (the
# page must work from file:// in Chromium and Firefox).
set -eu
PKGS="build-essential libpfm4-dev libelf-dev libdw-dev libcmocka-dev libinih-dev linux-perf
      clang libclang-rt-14-dev python3 man-db libxml2-utils libomp-dev
      clang-19 gfortran openmpi-bin libopenmpi-dev mpich libmpich-dev debuginfod
      libzydis-dev chromium strace python3-mpi4py libsqlite3-dev zlib1g-dev golang-go
      python3-pyside2.qtsql libqt5sql5-sqlite valgrind firefox-esr"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# tracefs: --trace os reads the tracepoints' formats and ids there (tests/e2e/ostrace*.sh
# skip without it); a machine that booted without it mounted gets it, as root
if [ "${1:-}" != "--check" ] && [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing ] &&
	! mountpoint -q /sys/kernel/tracing 2>/dev/null; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi
if [ "${1:-}" = "--check" ]; then
	[ -z "$missing" ] && exit 0
	echo "missing packages:$missing"
	exit 1
fi
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
