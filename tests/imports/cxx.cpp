// cxx.cpp - for the uftrace import test: a C++ member function called 10 times, whose
// name uftrace records mangled (_ZNK2ns1W4areaEi) and deepprof import demangles.
namespace ns {
struct W {
	__attribute__((noinline)) int area(int x) const
	{
		return x * 2;
	}
};
} // namespace ns

int main()
{
	ns::W w;
	int s = 0;

	for (int i = 0; i < 10; i++)
		s += w.area(i);
	return s & 1;
}
