// exceptions.cpp - main calls ns::Thrower::f1 -> f2 -> f3 N times; f3 throws when
// i % 3 == 0 and main catches, then calls after_catch() (attributed to main).
// Prints throws=T. Usage: exceptions [N=99].
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "dpt.h"

namespace ns
{
struct Thrower {
	long sum; // no initializer: a trivial constructor, no (inlined) hooks
	NOINLINE void f3(long i);
	NOINLINE void f2(long i);
	NOINLINE void f1(long i);
};

void Thrower::f3(long i)
{
	if (i % 3 == 0)
		throw std::runtime_error("multiple of three");
	sum += i;
}

void Thrower::f2(long i)
{
	f3(i);
	sum++;
}

void Thrower::f1(long i)
{
	f2(i);
	sum++;
}
} // namespace ns

NOINLINE static void after_catch(ns::Thrower &t, long i)
{
	t.sum += i;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 99), throws = 0;
	ns::Thrower t{};

	for (long i = 0; i < n; i++) {
		try {
			t.f1(i);
		} catch (const std::exception &) {
			throws++;
		}
		after_catch(t, i);
	}
	std::printf("throws=%ld sum=%ld\n", throws, t.sum);
	return 0;
}
