/*
 * progs/pymod.c - a Python C extension module ("dpspam"), built with
 * `deepprof cc -shared` and loaded by a plain python3: dpspam.fib(n) calls the naive
 * recursive fib(n); dpspam.leaf() calls leaf() once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "dpt.h"

static volatile long sink;

/* The volatile store keeps both calls real calls at -O2 (no accumulator loop). */
NOINLINE static long fib(long n)
{
	long a, b;

	if (n < 2)
		return 1;
	a = fib(n - 1);
	b = fib(n - 2);
	sink = b;
	return a + b;
}

NOINLINE static void leaf(void)
{
	sink++;
}

static PyObject *dpspam_fib(PyObject *self, PyObject *args)
{
	long n;

	(void)self;
	if (!PyArg_ParseTuple(args, "l", &n))
		return NULL;
	return PyLong_FromLong(fib(n));
}

static PyObject *dpspam_leaf(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	leaf();
	Py_RETURN_NONE;
}

static PyMethodDef dpspam_methods[] = {
	{"fib", dpspam_fib, METH_VARARGS, "naive fib"},
	{"leaf", dpspam_leaf, METH_NOARGS, "one call to leaf()"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef dpspam_module = {
	PyModuleDef_HEAD_INIT, "dpspam", NULL, -1, dpspam_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_dpspam(void)
{
	return PyModule_Create(&dpspam_module);
}
