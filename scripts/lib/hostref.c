// SPDX-License-Identifier: GPL-2.0
/*
 * hostref: how fast the host is right now, for scripts/bench to take
 * beside every boot of a native (UML) benchmark, whose figures move with
 * the host (results/bench/20261128-2137-uml: same host, same code, the
 * page-based figures 10-20% slower sixteen hours later).  Two loops, each
 * timed five times with CLOCK_MONOTONIC, the median printed:
 *
 *   host.alu.ns    one dependent 64-bit multiply-add per iteration: the
 *                  core's speed (its clock, a sibling thread's share);
 *   host.chase.ns  one load per step of a random cycle through 1408 KiB
 *                  in 64-byte lines (the default per-CPU buffer size): the
 *                  latency of the caches the ring buffers write through,
 *                  which neighbours on the host share.
 *
 * The cycle comes from a fixed seed, so every run walks the same order.
 * Output: "metric value" lines, as the guest's metrics.txt.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS		5
#define ALU_ITERS	50000000UL
#define CHASE_BYTES	(1408UL * 1024)
#define LINE		64
#define CHASE_STEPS	20000000UL

struct line {
	struct line *next;
	char pad[LINE - sizeof(struct line *)];
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v)
{
	qsort(v, RUNS, sizeof(*v), cmp_double);
	return v[RUNS / 2];
}

/* The result goes to a volatile sink so that the loop is not removed. */
static volatile uint64_t sink;

static double alu_ns(void)
{
	uint64_t x = 1;
	unsigned long i;
	double t0 = now_ns();

	for (i = 0; i < ALU_ITERS; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
	return (now_ns() - t0) / ALU_ITERS;
}

/* A random cyclic order of the lines (Sattolo's shuffle, fixed seed). */
static struct line *make_cycle(struct line *lines, size_t n)
{
	size_t *order = malloc(n * sizeof(*order));
	uint64_t seed = 88172645463325252ULL;
	size_t i, j, t;

	if (!order)
		return NULL;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		j = seed % i;
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)
		lines[order[i]].next = &lines[order[(i + 1) % n]];
	free(order);
	return &lines[0];
}

static double chase_ns(struct line *start)
{
	struct line *p = start;
	unsigned long i;
	double t0 = now_ns();

	for (i = 0; i < CHASE_STEPS; i++)
		p = p->next;
	sink = (uintptr_t)p;
	return (now_ns() - t0) / CHASE_STEPS;
}

int main(int argc, char **argv)
{
	size_t n = CHASE_BYTES / LINE;
	double alu[RUNS], chase[RUNS];
	struct line *lines, *start;
	int i;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: hostref");
		return 0;
	}
	if (argc > 1) {
		fputs("usage: hostref\n", stderr);
		return 2;
	}
	if (posix_memalign((void **)&lines, 4096, n * sizeof(*lines)))
		return 1;
	start = make_cycle(lines, n);
	if (!start)
		return 1;
	chase_ns(start);	/* warm-up: fault the pages in */
	for (i = 0; i < RUNS; i++) {
		alu[i] = alu_ns();
		chase[i] = chase_ns(start);
	}
	printf("host.alu.ns %.3f\n", median(alu));
	printf("host.chase.ns %.3f\n", median(chase));
	free(lines);
	return 0;
}
