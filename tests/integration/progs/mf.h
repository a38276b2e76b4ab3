/* mf.h - declarations shared by the multi-file test program. */
long util_twice(long i);
long more_leaf(long i);
