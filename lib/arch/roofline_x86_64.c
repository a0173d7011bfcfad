// SPDX-License-Identifier: MIT
/*
 * x86-64 roofline kernels (arch.h), one set per ISA, chosen at run time
 * (__builtin_cpu_supports), each compiled for its ISA with a target attribute so that
 * the binary (built for plain x86-64) runs on any x86-64 CPU.
 *
 *   fma    ARCH_RL_ACC independent accumulators, each acc = acc * m + a; SSE2 has no FMA:
 *          a multiply and an add per element (the same 2 FLOPs).
 *   read   a sum of every double of a buffer, 8 accumulators (load bandwidth)
 *   triad  a[i] = b[i] + s * c[i] (STREAM), vector loads and ordinary stores
 */
#include "arch/arch.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* The values stay bounded: m < 1, a > 0 (acc tends to a / (1 - m)). */
#define M_D 0.999999
#define A_D 1e-7
#define M_F 0.9999f
#define A_F 1e-4f

/* ARCH_RL_ACC (12) accumulators as named variables, so that they live in registers: the loop
 * body is 12 independent FMAs and nothing else. */
#define FMA_LOOP(T, SET1, FMA, ADD, M, A) \
	const T m_ = SET1(M), a_ = SET1(A); \
	T x0 = SET1(1), x1 = SET1(2), x2 = SET1(3), x3 = SET1(4), x4 = SET1(5), x5 = SET1(6); \
	T x6 = SET1(7), x7 = SET1(8), x8 = SET1(9), x9 = SET1(10), x10 = SET1(11); \
	T x11 = SET1(12); \
	for (uint64_t i = 0; i < iters; i++) { \
		x0 = FMA(x0, m_, a_); \
		x1 = FMA(x1, m_, a_); \
		x2 = FMA(x2, m_, a_); \
		x3 = FMA(x3, m_, a_); \
		x4 = FMA(x4, m_, a_); \
		x5 = FMA(x5, m_, a_); \
		x6 = FMA(x6, m_, a_); \
		x7 = FMA(x7, m_, a_); \
		x8 = FMA(x8, m_, a_); \
		x9 = FMA(x9, m_, a_); \
		x10 = FMA(x10, m_, a_); \
		x11 = FMA(x11, m_, a_); \
	} \
	T s_ = ADD(ADD(ADD(ADD(x0, x1), ADD(x2, x3)), ADD(ADD(x4, x5), ADD(x6, x7))), \
		   ADD(ADD(x8, x9), ADD(x10, x11)))

__attribute__((target("avx512f"))) static double fma_avx512_dp(uint64_t iters)
{
	FMA_LOOP(__m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, M_D, A_D);
	return _mm512_reduce_add_pd(s_);
}

__attribute__((target("avx512f"))) static double fma_avx512_sp(uint64_t iters)
{
	FMA_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, M_F, A_F);
	return _mm512_reduce_add_ps(s_);
}

__attribute__((target("avx2,fma"))) static double fma_avx2_dp(uint64_t iters)
{
	double out[4];

	FMA_LOOP(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, M_D, A_D);
	_mm256_storeu_pd(out, s_);
	return out[0] + out[1] + out[2] + out[3];
}

__attribute__((target("avx2,fma"))) static double fma_avx2_sp(uint64_t iters)
{
	float out[8];
	double sum = 0;

	FMA_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, M_F, A_F);
	_mm256_storeu_ps(out, s_);
	for (int k = 0; k < 8; k++)
		sum += out[k];
	return sum;
}

/* SSE2 has no FMA: a multiply and an add, the same 2 FLOPs */
#define SSE_FMA_PD(x, m, a) _mm_add_pd(_mm_mul_pd(x, m), a)
#define SSE_FMA_PS(x, m, a) _mm_add_ps(_mm_mul_ps(x, m), a)

static double fma_sse2_dp(uint64_t iters)
{
	double out[2];

	FMA_LOOP(__m128d, _mm_set1_pd, SSE_FMA_PD, _mm_add_pd, M_D, A_D);
	_mm_storeu_pd(out, s_);
	return out[0] + out[1];
}

static double fma_sse2_sp(uint64_t iters)
{
	float out[4];

	FMA_LOOP(__m128, _mm_set1_ps, SSE_FMA_PS, _mm_add_ps, M_F, A_F);
	_mm_storeu_ps(out, s_);
	return (double)out[0] + out[1] + out[2] + out[3];
}

/* 8 accumulators as named variables, 8 vectors loaded per step. */
#define READ_LOOP(T, ZERO, LOAD, ADD, LANES) \
	T r0 = ZERO(), r1 = ZERO(), r2 = ZERO(), r3 = ZERO(), r4 = ZERO(), r5 = ZERO(); \
	T r6 = ZERO(), r7 = ZERO(); \
	for (size_t i = 0; i + 8 * (LANES) <= n; i += 8 * (LANES)) { \
		r0 = ADD(r0, LOAD(p + i)); \
		r1 = ADD(r1, LOAD(p + i + (LANES))); \
		r2 = ADD(r2, LOAD(p + i + 2 * (LANES))); \
		r3 = ADD(r3, LOAD(p + i + 3 * (LANES))); \
		r4 = ADD(r4, LOAD(p + i + 4 * (LANES))); \
		r5 = ADD(r5, LOAD(p + i + 5 * (LANES))); \
		r6 = ADD(r6, LOAD(p + i + 6 * (LANES))); \
		r7 = ADD(r7, LOAD(p + i + 7 * (LANES))); \
	} \
	T s_ = ADD(ADD(ADD(r0, r1), ADD(r2, r3)), ADD(ADD(r4, r5), ADD(r6, r7)))

__attribute__((target("avx512f"))) static double read_avx512(const double *p, size_t n)
{
	READ_LOOP(__m512d, _mm512_setzero_pd, _mm512_load_pd, _mm512_add_pd, 8);
	return _mm512_reduce_add_pd(s_);
}

__attribute__((target("avx2"))) static double read_avx2(const double *p, size_t n)
{
	double out[4];

	READ_LOOP(__m256d, _mm256_setzero_pd, _mm256_load_pd, _mm256_add_pd, 4);
	_mm256_storeu_pd(out, s_);
	return out[0] + out[1] + out[2] + out[3];
}

static double read_sse2(const double *p, size_t n)
{
	double out[2];

	READ_LOOP(__m128d, _mm_setzero_pd, _mm_load_pd, _mm_add_pd, 2);
	_mm_storeu_pd(out, s_);
	return out[0] + out[1];
}

/* n is a multiple of 64 (lib/metric's roofline_bench.c sizes the arrays so); ordinary stores */
__attribute__((target("avx512f"))) static void triad_avx512(double *restrict a,
							    const double *restrict b,
							    const double *restrict c, double s,
							    size_t n)
{
	__m512d vs = _mm512_set1_pd(s);

	for (size_t i = 0; i < n; i += 8)
		_mm512_store_pd(a + i,
				_mm512_fmadd_pd(vs, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
}

__attribute__((target("avx2,fma"))) static void triad_avx2(double *restrict a,
							   const double *restrict b,
							   const double *restrict c, double s,
							   size_t n)
{
	__m256d vs = _mm256_set1_pd(s);

	for (size_t i = 0; i < n; i += 4)
		_mm256_store_pd(a + i,
				_mm256_fmadd_pd(vs, _mm256_load_pd(c + i), _mm256_load_pd(b + i)));
}

static void triad_sse2(double *restrict a, const double *restrict b, const double *restrict c,
		       double s, size_t n)
{
	__m128d vs = _mm_set1_pd(s);

	for (size_t i = 0; i < n; i += 2)
		_mm_store_pd(a + i,
			     _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(vs, _mm_load_pd(c + i))));
}

static double fma_avx512(bool sp, uint64_t iters)
{
	return sp ? fma_avx512_sp(iters) : fma_avx512_dp(iters);
}

static double fma_avx2(bool sp, uint64_t iters)
{
	return sp ? fma_avx2_sp(iters) : fma_avx2_dp(iters);
}

static double fma_sse2(bool sp, uint64_t iters)
{
	return sp ? fma_sse2_sp(iters) : fma_sse2_dp(iters);
}

static const struct arch_rl_kernels avx512 = { .isa = "avx512f",
					       .fma_how = "",
					       .bits = 512,
					       .fma = fma_avx512,
					       .read = read_avx512,
					       .triad = triad_avx512 };
static const struct arch_rl_kernels avx2 = { .isa = "avx2+fma",
					     .fma_how = "",
					     .bits = 256,
					     .fma = fma_avx2,
					     .read = read_avx2,
					     .triad = triad_avx2 };
static const struct arch_rl_kernels sse2 = { .isa = "sse2",
					     .fma_how = " (SSE2: a multiply and an add)",
					     .bits = 128,
					     .fma = fma_sse2,
					     .read = read_sse2,
					     .triad = triad_sse2 };

const struct arch_rl_kernels *arch_rl_kernels(int i)
{
	const struct arch_rl_kernels *runs[3];
	int n = 0;

	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		runs[n++] = &avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		runs[n++] = &avx2;
	runs[n++] = &sse2; /* every x86-64 CPU */
	return i >= 0 && i < n ? runs[i] : NULL;
}

/* 16 dependent integer adds per iteration (one cycle each on every x86-64 core since the
 * Pentium Pro; the loop's own decrement and branch run beside them): cycles = 16 x @iters. */
uint64_t arch_rl_clock_chain(uint64_t iters)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
				 : "+r"(x));
	return x;
}
