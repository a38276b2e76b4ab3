// catch.cpp - where a caught exception's destructor and the calls of a handler go.
// Each round throws an Err from deep (dive(4) -> dive(3) ... -> dive(0) throws) and
// catches it in one of four ways, each in its own function: by reference
// (catch_ref), by value (catch_val: the copy is made and destroyed by the handler
// itself), rethrown by rethrow() and caught by reference in catch_outer, and nested
// (catch_nested: a handler that throws and catches a second Err in an inner try).
// The handlers call no instrumented function before they end, so the first hook after
// the throw is the original's destructor, run inside __cxa_end_catch, which the
// catching function calls; Err::~Err() calls dtor_leaf(). Prints rounds=N.
// Usage: catch [N=40].
#include <cstdio>

#include "dpt.h"

static volatile long sink;

NOINLINE static void dtor_leaf(long v)
{
	sink += v;
}

NOINLINE static void in_handler(long v)
{
	sink += v;
}

struct Err {
	long v;
	NOINLINE explicit Err(long x) : v(x) {}
	NOINLINE Err(const Err &o) : v(o.v) {}
	NOINLINE ~Err() { dtor_leaf(v); }
};

NOINLINE static void dive(long depth, long v)
{
	if (depth == 0)
		throw Err(v);
	dive(depth - 1, v);
	sink++;
}

NOINLINE static void catch_ref(long i)
{
	try {
		dive(4, i);
	} catch (const Err &e) {
		sink += e.v;
	}
}

NOINLINE static void catch_val(long i)
{
	try {
		dive(4, i);
	} catch (Err e) {
		in_handler(e.v);
	}
}

NOINLINE static void rethrow(long i)
{
	try {
		dive(4, i);
	} catch (Err &) {
		throw;
	}
}

NOINLINE static void catch_outer(long i)
{
	try {
		rethrow(i);
	} catch (Err &e) {
		sink += e.v;
	}
}

NOINLINE static void catch_nested(long i)
{
	try {
		dive(4, i);
	} catch (Err &e) {
		try {
			dive(3, e.v);
		} catch (Err &inner) {
			sink += inner.v;
		}
		sink += e.v;
	}
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 40);

	for (long i = 0; i < n; i++) {
		catch_ref(i);
		catch_val(i);
		catch_outer(i);
		catch_nested(i);
	}
	std::printf("rounds=%ld\n", n);
	return 0;
}
