// SPDX-License-Identifier: GPL-2.0
/*
 * thrash chase|stream MIB: a neighbour that keeps the host's shared caches
 * and memory busy until it is killed.
 *
 * chase: walks a random cyclic order of the 64-byte lines of MIB MiB and
 * increments a counter in each line it visits, so that every access misses
 * the caches and dirties a line (latency-bound, like hostref's chase).
 * stream: memset() over MIB MiB again and again (bandwidth-bound).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64

static void chase(char *mem, size_t n)
{
	size_t *order = malloc(n * sizeof(*order));
	size_t i, j, t, cur = 0;

	if (!order) {
		perror("thrash");
		exit(1);
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	srand(1);
	for (i = n - 1; i > 0; i--) {	/* Fisher-Yates: one random cycle */
		j = (size_t)rand() % i;
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)		/* line order[i] names order[i + 1] */
		*(size_t *)(mem + order[i] * LINE) = order[(i + 1) % n];
	free(order);
	for (;;) {
		size_t next = *(volatile size_t *)(mem + cur * LINE);

		(*(volatile size_t *)(mem + cur * LINE + 8))++;
		cur = next;
	}
}

int main(int argc, char **argv)
{
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	size_t n = mib * 1024 * 1024 / LINE;
	char *mem;
	int i;

	if (argc != 3 || n < 2 || (strcmp(argv[1], "chase") && strcmp(argv[1], "stream"))) {
		fprintf(stderr, "usage: thrash chase|stream MIB\n");
		return 2;
	}
	mem = aligned_alloc(LINE, n * LINE);
	if (!mem) {
		perror("thrash");
		return 1;
	}
	if (!strcmp(argv[1], "chase"))
		chase(mem, n);
	for (i = 0;; i++)
		memset(mem, i, n * LINE);
}
