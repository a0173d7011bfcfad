#!/usr/bin/env bash
# LLVM 19's OpenMP runtime and libomptarget, unpacked under DIR (default build/llvm19):
# libomp-19-dev conflicts with Debian's libomp-14-dev (installing it would remove that),
# so it is never installed, only downloaded and unpacked. clang-19 -fopenmp-targets also
# needs clang-offload-packager and clang-linker-wrapper (clang-tools-19), unpacked beside
# it: DIR/usr/lib/llvm-19/bin goes first on PATH, then /usr/lib/llvm-19/bin (the wrapper
# runs "clang", which must be 19's). Idempotent: an unpacked tree is kept. Prints the
# library directory (libomp.so, libomptarget.so); exit 1 with one line on stderr when the
# packages cannot be had (an offline machine).
set -u
DIR=${1:-build/llvm19}
LIBDIR=$DIR/usr/lib/llvm-19/lib
PKGS="libomp-19-dev libomp5-19 clang-tools-19"
if [ -e "$LIBDIR/libomptarget.so" ] && [ -e "$LIBDIR/libomp.so" ] &&
	[ -x "$DIR/usr/lib/llvm-19/bin/clang-linker-wrapper" ]; then
	realpath "$LIBDIR"
	exit 0
fi
mkdir -p "$DIR/deb" || exit 1
for p in $PKGS; do
	ls "$DIR"/deb/"${p}"_*.deb >/dev/null 2>&1 && continue
	(cd "$DIR/deb" && timeout 300 apt-get download "$p" >/dev/null 2>&1) || {
		echo "llvm19-omp: apt-get download $p failed" >&2
		exit 1
	}
done
for d in "$DIR"/deb/*.deb; do
	dpkg -x "$d" "$DIR" || exit 1
done
[ -e "$LIBDIR/libomptarget.so" ] || { echo "llvm19-omp: no libomptarget.so in the packages" >&2; exit 1; }
realpath "$LIBDIR"
