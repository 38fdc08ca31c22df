// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop N: call getppid() N times and print the mean ns per call
 * (CLOCK_MONOTONIC around the loop).  Harness of scripts/guest/sysbench.sh
 * and peerbench.sh.
 *
 * sysloop -r RATE SECS: call getppid() RATE times a second for SECS
 * seconds, in batches every millisecond (sleeping in between), and print
 * the number of calls made: less than RATE * SECS when the CPU cannot keep
 * up.  Harness of scripts/guest/peerthr.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC	1000000000LL
#define TICK_NS		1000000LL

static long long ns(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static int paced(long long rate, long long secs)
{
	long long calls = 0, due, now, start, tick;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	start = ns(&t);
	for (tick = start + TICK_NS; ; tick += TICK_NS) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		now = ns(&t);
		if (now - start >= secs * NSEC_PER_SEC)
			break;
		/* Every call due by now; the rest of the tick asleep */
		due = (now - start) * rate / NSEC_PER_SEC;
		while (calls < due) {
			syscall(SYS_getppid);
			calls++;
		}
		if (tick > now) {
			t.tv_sec = tick / NSEC_PER_SEC;
			t.tv_nsec = tick % NSEC_PER_SEC;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		} else {
			tick = now;
		}
	}
	printf("%lld\n", calls);
	return 0;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec a, b;

	if (argc == 4 && !strcmp(argv[1], "-r")) {
		long long rate = atoll(argv[2]), secs = atoll(argv[3]);

		if (rate <= 0 || secs <= 0 || rate > NSEC_PER_SEC)
			return 2;
		return paced(rate, secs);
	}
	if (n <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
