// alloc_cxx.cpp - C++ new through the runtime's malloc: make() news an int[10] (40 bytes)
// and one Obj (24 bytes), R times. Usage: alloc_cxx [R=7].
#include <cstdio>

#include "dpt.h"

struct Obj {
	char b[24];
};

static void *volatile sink[2];

NOINLINE static void make()
{
	int *v = new int[10];
	Obj *o = new Obj;

	sink[0] = v;
	sink[1] = o;
	delete[] v;
	delete o;
}

int main(int argc, char **argv)
{
	long r = dpt_arg(argc, argv, 1, 7);

	for (long i = 0; i < r; i++)
		make();
	std::printf("sizeof(Obj)=%zu\n", sizeof(Obj));
	return 0;
}
