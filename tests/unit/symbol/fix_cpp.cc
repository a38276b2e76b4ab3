/*
 * tests/unit/symbol/fix_cpp.cc - symbolizer fixture in C++: a namespace, a class with a
 * const method and an overloaded method, a function template. Markers as in fix_c.c.
 */
#include "minirt.h"

namespace ns
{
struct Widget {
	int w, h;
	NOINLINE int area() const;
	NOINLINE void scale(int k);
	NOINLINE void scale(double k);
};

int Widget::area() const /* @def:area */
{
	return w * h;
}

void Widget::scale(int k) /* @def:scale_i */
{
	w *= k;
}

void Widget::scale(double k) /* @def:scale_d */
{
	h = (int)(h * k);
}

template <typename T> NOINLINE T twice(T x) /* @def:twice */
{
	return x + x;
}
} // namespace ns

int main(int argc, char **) /* @def:main */
{
	ns::Widget wd = {argc, 2};

	wd.scale(3);				      /* @call:scale_i */
	wd.scale(1.5);				      /* @call:scale_d */
	return ns::twice(wd.area()) == 12345 ? 1 : 0; /* @call:area */
}
