#!/usr/bin/env bash
# bench/tools/make_session.sh UPROF DIR: collect a large multi-process dwarf session into
# DIR/c and print its path: uprof collect --call-graph dwarf of make -j2 (three builds, -B)
# of a tree of 16 C files, so many short processes (make, sh, gcc, cc1, as, ld) with deep
# stacks; ~8000 samples, ~65 MB of samples.data here. bench/translate.sh and
# bench/report_c.sh -m use it.
set -u
(($# == 2)) || { echo "usage: $0 UPROF DIR" >&2; exit 2; }
U=$1 T=$2
mkdir -p "$T/tree"
for i in $(seq 1 16); do
	cat >"$T/tree/f$i.c" <<EOF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct s$i { int a[64]; char name[32]; double d[16]; };
static int cmp$i(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }
int work$i(int n)
{
	struct s$i v;
	for (int k = 0; k < 64; k++)
		v.a[k] = (k * 7919 + n) % 101;
	qsort(v.a, 64, sizeof(int), cmp$i);
	for (int k = 0; k < 16; k++)
		v.d[k] = v.a[k] * 0.5 + n;
	snprintf(v.name, sizeof(v.name), "w%d %.1f", v.a[n % 64], v.d[n % 16]);
	return (int)strlen(v.name);
}
EOF
done
printf 'all: %s\n%%.o: %%.c\n\tgcc -O2 -g -c -o $@ $<\n' "$(cd "$T/tree" && ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')" \
	>"$T/tree/Makefile"
"$U" collect --call-graph dwarf -o "$T/c" sh -c \
	"for i in 1 2 3; do make -s -B -j2 -C '$T/tree' || exit 1; done" >/dev/null 2>&1 || exit 1
ls -d "$T"/c/uprof-* | head -n1
