// SPDX-License-Identifier: GPL-2.0
/*
 * Causal order of the global trace clock, seen from user space.
 *
 * Two threads pinned to two CPUs take turns: on its turn a thread writes
 * "pp <turn>" to trace_marker, then hands the turn over through shared
 * memory.  Each write happens after the previous one returned and the
 * hand-over was seen, so with trace_clock=global the time stamps in the
 * trace must not decrease from one turn to the next.  The first online CPU
 * plays against each of the others in turn.  A player whose write fails
 * (its CPU does not record) stops the other, which would otherwise wait
 * for its turn for ever: the test fails instead of hanging.
 *
 * Usage: global_clock_pingpong [-n turns] [-c clock]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"

#define TRACEFS "/sys/kernel/tracing/"

static int turns = 4000;
static const char *clock_name = "global";
static int marker_fd;
static int cpus[2];
static atomic_int turn;		/* -1: a player gave up, the other stops */

static int write_file(const char *name, const char *val)
{
	int fd = open(name, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* The selected clock: the word in brackets of the trace_clock file. */
static int current_clock(char *buf, size_t len)
{
	char all[512], *s, *e;
	FILE *f = fopen(TRACEFS "trace_clock", "r");

	if (!f || !fgets(all, sizeof(all), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	s = strchr(all, '[');
	e = s ? strchr(s, ']') : NULL;
	if (!e || (size_t)(e - s) >= len)
		return -1;
	memcpy(buf, s + 1, e - s - 1);
	buf[e - s - 1] = '\0';
	return 0;
}

/* Give up, and make the other player, which waits for its turn, stop too */
static void *give_up(long idx, const char *what)
{
	ksft_print_msg("CPU %d: %s: %s\n", cpus[idx], what, strerror(errno));
	atomic_store(&turn, -1);
	return (void *)1L;
}

static void *player(void *arg)
{
	long idx = (long)arg;
	cpu_set_t set;
	char buf[32];
	int i, n, t;

	CPU_ZERO(&set);
	CPU_SET(cpus[idx], &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return give_up(idx, "sched_setaffinity");
	for (i = idx; i < turns; i += 2) {
		/* Pairs with the release store that ended the other's turn. */
		while ((t = atomic_load_explicit(&turn, memory_order_acquire)) != i)
			if (t < 0)
				return (void *)1L;
		n = snprintf(buf, sizeof(buf), "pp %d\n", i);
		if (write(marker_fd, buf, n) != n)
			return give_up(idx, "write to trace_marker");
		atomic_store_explicit(&turn, i + 1, memory_order_release);
	}
	return NULL;
}

/*
 * Check the trace: every turn present once, on its player's CPU, and time
 * stamps (microseconds, as the trace file prints them) never decreasing.
 */
static int check_trace(void)
{
	unsigned long long *ts = calloc(turns, sizeof(*ts));
	int *seen = calloc(turns, sizeof(*seen));
	int bad = 0, missing = 0, i, cpu, t;
	unsigned long long sec, usec;
	char line[512], *p, *q;
	FILE *f;

	f = fopen(TRACEFS "trace", "r");
	if (!f || !ts || !seen)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, ": tracing_mark_write: pp ");
		if (!p)
			continue;
		t = atoi(p + strlen(": tracing_mark_write: pp "));
		*p = '\0';
		q = strrchr(line, ' ');
		if (!q || sscanf(q, " %llu.%llu", &sec, &usec) != 2 || t < 0 || t >= turns)
			continue;
		p = strchr(line, '[');
		cpu = p ? atoi(p + 1) : -1;
		if (cpu != cpus[t & 1]) {
			ksft_print_msg("turn %d on CPU %d, not %d\n", t, cpu, cpus[t & 1]);
			bad++;
		}
		ts[t] = sec * 1000000ULL + usec;
		seen[t]++;
	}
	fclose(f);
	for (i = 0; i < turns; i++) {
		if (seen[i] != 1) {
			if (missing++ < 5)
				ksft_print_msg("turn %d seen %d times\n", i, seen[i]);
			continue;
		}
		if (i && seen[i - 1] == 1 && ts[i] < ts[i - 1]) {
			if (bad++ < 5)
				ksft_print_msg("turn %d (CPU %d) at %llu us < turn %d at %llu us\n",
					       i, cpus[i & 1], ts[i], i - 1, ts[i - 1]);
		}
	}
	free(ts);
	free(seen);
	return bad || missing ? 1 : 0;
}

static int play(int a, int b)
{
	pthread_t th[2];
	void *ret[2];
	long i;

	cpus[0] = a;
	cpus[1] = b;
	atomic_store(&turn, 0);
	if (write_file(TRACEFS "trace", ""))
		return -1;
	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, player, (void *)i))
			return -1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], &ret[i]);
	if (ret[0] || ret[1])
		return 2;	/* the player said why */
	return check_trace();
}

/* The first number of a tracefs file, as a string. */
static int read_number(const char *name, char *buf, size_t len)
{
	FILE *f = fopen(name, "r");
	int ret = -1;

	if (f && fgets(buf, len, f)) {
		buf[strspn(buf, "0123456789")] = '\0';
		ret = buf[0] ? 0 : -1;
	}
	if (f)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	char old_clock[64], old_size[32], size[32];
	cpu_set_t online;
	int opt, cpu, first = -1, ncpus = 0, r;

	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		if (opt == 'n')
			turns = atoi(optarg);
		else if (opt == 'c')
			clock_name = optarg;
	}
	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must run as root\n");
	if (current_clock(old_clock, sizeof(old_clock)))
		ksft_exit_skip("no tracefs at " TRACEFS "\n");
	if (sched_getaffinity(0, sizeof(online), &online))
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		if (first < 0)
			first = cpu;
		ncpus++;
	}
	if (ncpus < 2)
		ksft_exit_skip("needs 2 CPUs\n");
	if (read_number(TRACEFS "buffer_size_kb", old_size, sizeof(old_size)))
		ksft_exit_fail_msg("cannot read buffer_size_kb\n");
	/* Room for every turn: the buffer may still be its boot-time size. */
	snprintf(size, sizeof(size), "%d", 64 + turns / 8);
	if (write_file(TRACEFS "buffer_size_kb", size))
		ksft_exit_fail_msg("cannot resize the buffer to %s KiB\n", size);
	if (write_file(TRACEFS "trace_clock", clock_name))
		ksft_exit_fail_msg("cannot select clock %s\n", clock_name);
	marker_fd = open(TRACEFS "trace_marker", O_WRONLY);
	if (marker_fd < 0)
		ksft_exit_fail_msg("trace_marker: %s\n", strerror(errno));
	write_file(TRACEFS "tracing_on", "1");

	ksft_set_plan(ncpus - 1);
	for (cpu = first + 1; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		r = play(first, cpu);
		if (r < 0)
			ksft_test_result_error("CPU %d <-> CPU %d: %s\n",
					       first, cpu, strerror(errno));
		else if (r == 2)
			ksft_test_result_error("CPU %d <-> CPU %d: a player gave up\n",
					       first, cpu);
		else
			ksft_test_result(r == 0, "%d turns CPU %d <-> CPU %d, clock %s\n",
					 turns, first, cpu, clock_name);
	}
	close(marker_fd);
	write_file(TRACEFS "trace", "");
	write_file(TRACEFS "trace_clock", old_clock);
	write_file(TRACEFS "buffer_size_kb", old_size);
	ksft_finished();
}
