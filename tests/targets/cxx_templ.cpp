// SPDX-License-Identifier: MIT
/* C++ names: a namespaced class template method must be reported demangled. */
#include <cstdio>

namespace ns {
template <typename T> struct Tmpl {
	T x = 0;
	__attribute__((noinline)) T step(int n)
	{
		for (int i = 0; i < n; i++)
			x = x * (T)1.0000001 + (T)1e-9;
		return x;
	}
};
} // namespace ns

int main()
{
	ns::Tmpl<double> t;
	double s = 0;

	for (int i = 0; i < 20; i++)
		s += t.step(10000000);
	std::printf("%g\n", s);
	return 0;
}
