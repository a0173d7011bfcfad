/* SPDX-License-Identifier: MIT */
/* tests/e2e/symbol_paths.sh: two functions of 3:1 work, named from the build-id cache,
 * --bin-path or --symbol-path. Built twice: with HOT_STEP changed, another build id. */
#include <stdlib.h>
#ifndef HOT_STEP
#define HOT_STEP 0.5
#endif
__attribute__((noinline)) double spin_hot(long n)
{ volatile double x = 0; for (long i = 0; i < n; i++) x += i * HOT_STEP; return x; }
__attribute__((noinline)) double spin_cold(long n)
{ volatile double x = 0; for (long i = 0; i < n; i++) x += i * 0.25; return x; }
int main(int c, char **v)
{ long n = c > 1 ? atol(v[1]) : 1000; return (int)(spin_hot(3 * n) + spin_cold(n)) & 1; }
