// SPDX-License-Identifier: MIT
// A C++ program whose time is in the STL, inlined: std::map::operator[] (a red-black tree
// walk and insert, inlined several levels deep at -O2), std::sort over a vector, and
// std::unordered_map lookups. tests/e2e/dwarf_vs_perf.sh compares uprof's dwarf stacks
// (inlined frames included) with perf script --inline on the same samples.data.
// Usage: stl_map [rounds]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

static unsigned long long seed = 88172645463325252ULL;

// Out of line: where gcc inlines it, binutils' addr2line (what perf script --inline
// asks) names some of its addresses by the caller, "use_map (inlined)" at line 19 of
// next_rand, while libdw's scopes say next_rand; that is perf's to fix, not a stack to
// compare.
__attribute__((noinline)) static unsigned next_rand()
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)seed;
}

__attribute__((noinline)) static long use_map(int n)
{
	std::map<int, long> m;
	long sum = 0;

	for (int i = 0; i < n; i++)
		m[(int)(next_rand() % 50000)] += i;
	for (auto &kv : m)
		sum += kv.second;
	return sum;
}

__attribute__((noinline)) static long use_sort(int n)
{
	std::vector<unsigned> v(n);

	for (auto &x : v)
		x = next_rand();
	std::sort(v.begin(), v.end());
	return v[n / 2];
}

__attribute__((noinline)) static long use_hash(int n)
{
	std::unordered_map<std::string, int> h;
	long sum = 0;
	char key[32];

	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%u", next_rand() % 20000);
		sum += ++h[key];
	}
	return sum;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	long total = 0;

	for (int r = 0; r < rounds; r++) {
		total += use_map(200000);
		total += use_sort(300000);
		total += use_hash(100000);
	}
	printf("%ld\n", total % 1000);
	return 0;
}
