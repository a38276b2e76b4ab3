/* contour_app.c - application code over a container library (contour_lib.c): find_user()
 * looks up 30 keys and find_group() 5, both through map_find() -> tree_search(). With
 * "all contour_lib.c" excluded, tree_search()'s callers regroup under the application's
 * call sites: 30 calls from find_user, 5 from find_group, instead of 35 from map_find. */
#define NOINLINE __attribute__((noinline))

int map_find(int key);

NOINLINE static int find_user(void)
{
	int i, hits = 0;

	for (i = 0; i < 30; i++)
		hits += map_find(i);
	return hits;
}

NOINLINE static int find_group(void)
{
	int i, hits = 0;

	for (i = 0; i < 5; i++)
		hits += map_find(100 + i);
	return hits;
}

int main(void)
{
	return find_user() + find_group() < 0;
}
