// SPDX-License-Identifier: GPL-2.0
/*
 * clockcost: what the global trace clock's two costs are on this host,
 * in user space (the same instructions the kernel runs):
 *   rdtsc          a plain TSC read (sched_clock()'s core on x86)
 *   lfence+rdtsc   the fast path's rmb() before the read
 *   shared-cmpxchg the slow path's publish: a cmpxchg on one cache line
 *                  that two threads on two CPUs update on every call
 *   private-cmpxchg the same on a line only this thread touches
 * Each figure is the best of 7 runs of N iterations, ns per iteration.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static long n = 20000000;
static volatile uint64_t shared __attribute__((aligned(64)));
static volatile int go, stop;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static uint64_t sink;

static double run_rdtsc(int fence)
{
	double a = now();
	uint64_t s = 0;

	for (long i = 0; i < n; i++) {
		if (fence)
			_mm_lfence();
		s += __rdtsc();
	}
	sink += s;
	return (now() - a) / n;
}

/* publish max(prev, v) as the slow path does */
static void publish(volatile uint64_t *p, uint64_t v)
{
	uint64_t prev = *p;

	while ((int64_t)(v - prev) > 0) {
		if (__atomic_compare_exchange_n(p, &prev, v, 0, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			break;
	}
}

static double run_cmpxchg(volatile uint64_t *p)
{
	double a = now();

	for (long i = 0; i < n; i++)
		publish(p, __rdtsc());
	return (now() - a) / n;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *other(void *arg)
{
	pin(1);
	while (!go)
		;
	while (!stop)
		publish(&shared, __rdtsc());
	return NULL;
}

static double best(double (*f)(int), int arg)
{
	double b = 1e18, v;

	for (int r = 0; r < 7; r++) {
		v = f(arg);
		if (v < b)
			b = v;
	}
	return b;
}

static double cmp_private(int unused)
{
	static volatile uint64_t mine __attribute__((aligned(64)));

	return run_cmpxchg(&mine);
}

static double cmp_shared(int unused)
{
	return run_cmpxchg(&shared);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		n = atol(argv[1]);
	pin(0);
	printf("rdtsc %.2f\n", best(run_rdtsc, 0));
	printf("lfence+rdtsc %.2f\n", best(run_rdtsc, 1));
	printf("private-cmpxchg+rdtsc %.2f\n", best(cmp_private, 0));
	pthread_create(&t, NULL, other, NULL);
	go = 1;
	printf("shared-cmpxchg+rdtsc %.2f (another CPU publishing too)\n", best(cmp_shared, 0));
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}
