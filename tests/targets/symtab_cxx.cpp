// SPDX-License-Identifier: MIT
/*
 * Target for tests/unit/test_symtab.c: a method of a namespaced class template, whose
 * symbol must come out demangled as "ns::Tmpl<double>::step(int)".
 */
namespace ns {
template <typename T> struct Tmpl {
	T v;
	__attribute__((noinline)) T step(int n)
	{
		for (int i = 0; i < n; i++)
			v = v * 0.5 + i;
		return v;
	}
};
} // namespace ns

int main(int argc, char **)
{
	ns::Tmpl<double> t{ 1.0 };

	return static_cast<int>(t.step(argc)) & 1;
}
