/* contour_lib.c - a tiny "container library" for contour_app.c: map_find() calls the
 * internal tree_search() once per lookup. */
#define NOINLINE __attribute__((noinline))

static volatile int keys[8] = {1, 3, 5, 7, 101, 103, 105, 107};

NOINLINE static int tree_search(int key)
{
	int i;

	for (i = 0; i < 8; i++)
		if (keys[i] == key)
			return 1;
	return 0;
}

NOINLINE int map_find(int key)
{
	return tree_search(key);
}
