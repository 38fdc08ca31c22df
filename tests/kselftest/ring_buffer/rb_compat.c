// SPDX-License-Identifier: GPL-2.0
/*
 * Byte-level check of what the ring buffer hands user space.
 *
 * Writers pinned to every CPU write numbered records through
 * trace_marker_raw; per_cpu/cpuN/trace_pipe_raw is read (concurrently,
 * or after the writers, to force losses) and every sub-buffer is decoded
 * twice: by a strict walk of the format, and with libtraceevent's kbuffer
 * API as trace-cmd does.  Checked: every record present at most once and
 * in order, payload intact, times monotonic per CPU, records chaining
 * exactly to the commit size, and every gap in the numbering announced
 * by the missed-events flag with the right count where it is stored;
 * then read + lost equals written against per_cpu/cpuN/stats.
 *
 * The strict walk knows only the record types that 6.1's page-based
 * buffer writes outside absolute-time mode (padding, TIME_EXTEND, data;
 * TIME_STAMP only for a writer nested in another, which these writers
 * never are): a TIME_STAMP fails the check, as it would fail the tools
 * that decode 6.1's format without it.  The times it computes must equal
 * kbuffer's.
 *
 * Usage: rb_compat [-n records] [-k buffer_kb] [-l] [-u] drain|overrun|discard|gaps|write
 *   -l:      the reader may fall behind in drain mode (other load beside
 *            it): losses are allowed there, announced and counted
 *   -u:      discard-mode losses need not be announced in the stream, only
 *            counted in the stats (the page-based ring buffer's rule)
 *   drain:   discard mode, reader running: nothing may be lost.  Each
 *            writer stays at most a quarter of its CPU buffer ahead of
 *            what the reader has decoded (pace()), so the buffer always
 *            has room and a loss is the ring buffer's, not the
 *            scheduler's; with -l the writers run free
 *   overrun: flight-recorder mode, read after the writers: oldest lost
 *   discard: discard mode, read after the writers: newest lost
 *   gaps:    a few records per CPU, 4.5 s apart (more than 2^32 ns, so
 *            the delta needs a TIME_EXTEND), read after the writers
 *   write:   only write the records (for another reader, e.g. trace-cmd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>

#include "../kselftest.h"
#include "rb_format.h"
#include "rb_tracefs.h"

#define MAGIC		0x52427362	/* "bsBR": trace_marker_raw id */

struct rec {			/* trace_marker_raw payload after the id */
	uint32_t seq;
	uint32_t cpu;
	uint32_t len;		/* fill bytes that follow */
	unsigned char fill[];
};

static int failures;
static long page_size;
static bool unannounced_drops;	/* -u */
static unsigned int gap_us;	/* gaps: pause between two records */

/*
 * drain without -l: the next sequence number the reader expects of each
 * CPU, shared with the writers (reader_next[cpu]), and how many records
 * a writer may be ahead of it.
 */
#define PACE_STALL_US	10000000	/* a reader this stuck: run free */
static long long *reader_next;
static unsigned int pace_window;

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (failures++ > 20)
		return;
	va_start(ap, fmt);
	printf("# FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static void die(const char *what)
{
	ksft_exit_fail_msg("%s: %s\n", what, strerror(errno));
}

/* CPU numbers below nr_cpus; writers run on those this test may use */
static int nr_cpus;
static cpu_set_t *test_cpus;
static size_t test_cpus_size;

static void find_cpus(void)
{
	nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	test_cpus_size = CPU_ALLOC_SIZE(nr_cpus);
	test_cpus = CPU_ALLOC(nr_cpus);
	if (nr_cpus < 1 || !test_cpus)
		die("CPU_ALLOC");
	if (sched_getaffinity(0, test_cpus_size, test_cpus))
		die("sched_getaffinity");
}

/* The next CPU after @cpu to test (-1 to begin), or -1 after the last. */
static int next_cpu(int cpu)
{
	while (++cpu < nr_cpus)
		if (CPU_ISSET_S(cpu, test_cpus_size, test_cpus))
			return cpu;
	return -1;
}

static void tfs_set(const char *file, const char *val)
{
	if (tfs_write(file, val))
		die(file);
}

static unsigned long stat_field(int cpu, const char *name)
{
	char path[256], line[256];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(name);

		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtoul(line + n + 1, NULL, 10);
	}
	fclose(f);
	return v;
}

static int raw_data_id(void)
{
	char line[256];
	int id = -1;
	FILE *f = fopen(TRACEFS "/events/ftrace/raw_data/format", "r");

	if (!f)
		die("raw_data/format");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ID: %d", &id) == 1)
			break;
	fclose(f);
	return id;
}

/*
 * Wait until record @seq of @cpu is at most pace_window records ahead
 * of the reader.  A reader that makes no progress for PACE_STALL_US
 * (stuck, or not reading at all) is not waited for any more: what is
 * lost after that is counted, and fails the drain check.
 */
static void pace(int cpu, unsigned int seq)
{
	long long last = -1;
	unsigned int waited = 0;

	while (pace_window && waited < PACE_STALL_US) {
		long long next = __atomic_load_n(&reader_next[cpu], __ATOMIC_RELAXED);

		if ((long long)seq - next <= pace_window)
			return;
		if (next != last)
			waited = 0;
		last = next;
		usleep(100);
		waited += 100;
	}
	pace_window = 0;
}

static void writer(int cpu, unsigned int n)
{
	unsigned char buf[4 + sizeof(struct rec) + 256];
	struct rec *r = (void *)(buf + 4);
	uint32_t magic = MAGIC;
	cpu_set_t *set = CPU_ALLOC(nr_cpus);
	unsigned int i, j;
	int fd;

	if (!set)
		die("CPU_ALLOC");
	CPU_ZERO_S(test_cpus_size, set);
	CPU_SET_S(cpu, test_cpus_size, set);
	if (sched_setaffinity(0, test_cpus_size, set))
		die("sched_setaffinity");
	fd = open(TRACEFS "/trace_marker_raw", O_WRONLY);
	if (fd < 0)
		die("trace_marker_raw");
	memcpy(buf, &magic, 4);
	for (i = 0; i < n; i++) {
		pace(cpu, i);
		r->seq = i;
		r->cpu = cpu;
		/* 0..199 fill bytes: small records and type_len 0 ones */
		r->len = (i * 37) % 200;
		for (j = 0; j < r->len; j++)
			r->fill[j] = (unsigned char)(i + j);
		/*
		 * A record the ring buffer refuses (discard mode, buffer
		 * full) fails with EBADF; the buffer counts it as dropped.
		 */
		if (write(fd, buf, 4 + sizeof(*r) + r->len) < 0 && errno != EBADF)
			die("write trace_marker_raw");
		if (gap_us && i + 1 < n)
			usleep(gap_us);
	}
	close(fd);
	_exit(0);
}

struct cpu_state {
	long long next;		/* next sequence number expected */
	unsigned long long last_ts;
	unsigned long read, lost_seen, pages, missed_flags, unknown_missed;
	unsigned long padding, extend, stamp;
};

static struct cpu_state *st;	/* by CPU number */
static int raw_id;
/* Times of the data records of the sub-buffer, by the strict walk */
#define WALK_MAX	8192
static unsigned long long walk_ts[WALK_MAX];
static unsigned int walk_nr;

/* Strict walk of one sub-buffer; returns the missed count (or -1). */
static long walk_page(int cpu, unsigned char *page)
{
	struct cpu_state *s = &st[cpu];
	struct rb_walk w;

	walk_nr = 0;
	if (!rb_walk_begin(&w, page, page_size)) {
		fail("cpu%d: %s", cpu, w.err);
		return 0;
	}
	while (rb_walk_next(&w)) {
		switch (w.type) {
		case RB_TYPE_PADDING:
			s->padding++;
			break;
		case RB_TYPE_TIME_EXTEND:
			s->extend++;
			break;
		case RB_TYPE_TIME_STAMP:
			fail("cpu%d: TIME_STAMP at %lu: not 6.1's format (not absolute)",
			     cpu, w.off);
			s->stamp++;
			break;
		default:
			if (walk_nr < WALK_MAX)
				walk_ts[walk_nr++] = w.ts;
			break;
		}
	}
	if (w.err[0]) {
		fail("cpu%d: %s", cpu, w.err);
		return 0;
	}
	if (w.flags & RB_MISSED_EVENTS)
		s->missed_flags++;
	return rb_walk_missed(&w);
}

static void decode_page(int cpu, unsigned char *page, struct kbuffer *kbuf)
{
	struct cpu_state *s = &st[cpu];
	unsigned long long ts;
	unsigned int nr = 0;
	bool first = true;
	long missed;
	void *data;

	s->pages++;
	missed = walk_page(cpu, page);
	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		fail("cpu%d: kbuffer cannot load a sub-buffer", cpu);
		return;
	}
	if (kbuffer_missed_events(kbuf) != (missed < 0 ? -1 : missed))
		fail("cpu%d: kbuffer reports %d missed, the header says %ld",
		     cpu, kbuffer_missed_events(kbuf), missed);

	for (data = kbuffer_read_event(kbuf, &ts); data;
	     data = kbuffer_next_event(kbuf, &ts)) {
		unsigned char *p = data;
		uint16_t type = *(uint16_t *)p;
		uint32_t magic = *(uint32_t *)(p + 8);
		struct rec *r = (void *)(p + 12);
		long long gap;
		unsigned int j;

		if (nr < walk_nr && ts != walk_ts[nr])
			fail("cpu%d: record %u of a sub-buffer: time %llu, kbuffer says %llu",
			     cpu, nr, walk_ts[nr], ts);
		nr++;
		if (type != raw_id || magic != MAGIC)
			continue;	/* somebody else's event */
		if (gap_us && s->next && ts - s->last_ts < gap_us * 1000ULL - 50000000ULL)
			fail("cpu%d: seq %u only %llu ns after the one before",
			     cpu, r->seq, ts - s->last_ts);
		if (ts < s->last_ts)
			fail("cpu%d: time goes back %llu -> %llu", cpu, s->last_ts, ts);
		s->last_ts = ts;
		if (r->cpu != (unsigned int)cpu)
			fail("cpu%d: record of cpu %u", cpu, r->cpu);
		if (kbuffer_event_size(kbuf) < (int)(12 + sizeof(*r) + r->len))
			fail("cpu%d: seq %u: event size %d < payload %zu", cpu, r->seq,
			     kbuffer_event_size(kbuf), 12 + sizeof(*r) + r->len);
		for (j = 0; j < r->len && j < 200; j++) {
			if (r->fill[j] != (unsigned char)(r->seq + j)) {
				fail("cpu%d: seq %u: payload byte %u corrupt", cpu, r->seq, j);
				break;
			}
		}
		gap = (long long)r->seq - s->next;
		if (gap < 0) {
			fail("cpu%d: seq %u after %lld: duplicate or out of order",
			     cpu, r->seq, s->next - 1);
		} else if (gap > 0) {
			if ((!first || !missed) && !unannounced_drops)
				fail("cpu%d: %lld missing before seq %u, no missed flag",
				     cpu, gap, r->seq);
			else if (missed > 0 && missed != gap)
				/* other events may be lost too: never fewer */
				if (missed < gap)
					fail("cpu%d: missed count %ld < %lld missing before seq %u",
					     cpu, missed, gap, r->seq);
			s->lost_seen += gap;
		} else if (first && missed > 0) {
			fail("cpu%d: missed count %ld but nothing missing before seq %u",
			     cpu, missed, r->seq);
		}
		if (first && missed < 0)
			s->unknown_missed++;
		first = false;
		s->next = (long long)r->seq + 1;
		s->read++;
	}
	if (nr != walk_nr)
		fail("cpu%d: %u data records in a sub-buffer, kbuffer reads %u",
		     cpu, walk_nr, nr);
}

/* Read what trace_pipe_raw of every CPU has now; returns pages read. */
static int drain(int *fds, struct kbuffer *kbuf, unsigned char *page)
{
	int cpu, got = 0;

	for (cpu = next_cpu(-1); cpu >= 0; cpu = next_cpu(cpu)) {
		for (;;) {
			ssize_t r = read(fds[cpu], page, page_size);

			if (r < 0 && errno == EAGAIN)
				break;
			if (r < 0)
				die("read trace_pipe_raw");
			if (r == 0)
				break;
			if (r != page_size) {
				fail("cpu%d: short read of %zd bytes", cpu, r);
				break;
			}
			decode_page(cpu, page, kbuf);
			if (reader_next)
				__atomic_store_n(&reader_next[cpu], st[cpu].next,
						 __ATOMIC_RELAXED);
			got++;
		}
	}
	return got;
}

int main(int argc, char **argv)
{
	unsigned int n = 20000, kb = 0;
	int cpu, opt, *fds, running, status;
	bool concurrent, overwrite, may_lose = false;
	unsigned char *page;
	struct kbuffer *kbuf;
	const char *mode;
	char path[256];
	pid_t pid;

	while ((opt = getopt(argc, argv, "n:k:lu")) != -1) {
		if (opt == 'n')
			n = strtoul(optarg, NULL, 0);
		else if (opt == 'k')
			kb = strtoul(optarg, NULL, 0);
		else if (opt == 'l')
			may_lose = true;
		else if (opt == 'u')
			unannounced_drops = true;
		else
			optind = argc;
	}
	if (optind != argc - 1)
		ksft_exit_fail_msg("usage: rb_compat [-n N] [-k KB] [-l] [-u] MODE\n");
	mode = argv[optind];
	find_cpus();
	if (!strcmp(mode, "write")) {
		for (cpu = next_cpu(-1); cpu >= 0; cpu = next_cpu(cpu)) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (!pid)
				writer(cpu, n);
		}
		while (wait(&status) > 0)
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				failures++;
		if (failures)
			ksft_exit_fail_msg("a writer failed\n");
		ksft_exit_pass();
	}
	concurrent = !strcmp(mode, "drain");
	overwrite = !strcmp(mode, "overrun");
	if (!strcmp(mode, "gaps")) {
		gap_us = 4500000;	/* 2^32 ns is 4.29 s */
		n = 3;
		kb = 1024;
	} else if (!concurrent && !overwrite && strcmp(mode, "discard")) {
		ksft_exit_fail_msg("unknown mode %s\n", mode);
	}
	/* Flight-recorder losses are announced by either ring buffer */
	if (overwrite)
		unannounced_drops = false;

	ksft_print_header();
	ksft_set_plan(1);
	page_size = subbuf_size();
	st = calloc(nr_cpus, sizeof(*st));
	fds = calloc(nr_cpus, sizeof(*fds));
	page = malloc(page_size);
	kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			     KBUFFER_ENDIAN_LITTLE);
	if (!st || !fds || !page || !kbuf)
		die("alloc");

	tfs_set("tracing_on", "0");
	tfs_set("events/enable", "0");
	tfs_set("options/overwrite", overwrite ? "1" : "0");
	if (!kb)
		kb = concurrent ? 1024 : 32;
	snprintf(path, sizeof(path), "%u", kb);
	tfs_set("buffer_size_kb", path);
	tfs_set("trace", "");
	raw_id = raw_data_id();
	if (concurrent && !may_lose) {
		/*
		 * A record is under 256 bytes: an event header and a length
		 * word, the raw_data event's 8 bytes of common fields and
		 * its id, 12 + 199 bytes of payload.  A quarter of the CPU
		 * buffer in flight leaves room for the reader's page, the
		 * writer's sub-buffer and the padding at their ends.
		 */
		pace_window = kb * 1024 / 4 / 256;
		reader_next = mmap(NULL, nr_cpus * sizeof(*reader_next),
				   PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (reader_next == MAP_FAILED)	/* zero-filled */
			die("mmap");
	}
	for (cpu = next_cpu(-1); cpu >= 0; cpu = next_cpu(cpu)) {
		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
		fds[cpu] = open(path, O_RDONLY | O_NONBLOCK);
		if (fds[cpu] < 0)
			die(path);
	}
	tfs_set("tracing_on", "1");

	running = 0;
	for (cpu = next_cpu(-1); cpu >= 0; cpu = next_cpu(cpu)) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			writer(cpu, n);
		running++;
	}
	while (running) {
		if (concurrent)
			drain(fds, kbuf, page);
		if (waitpid(-1, &status, concurrent ? WNOHANG : 0) > 0) {
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				fail("a writer failed");
			running--;
		} else if (concurrent) {
			usleep(1000);
		}
	}
	tfs_set("tracing_on", "0");
	while (drain(fds, kbuf, page))
		;

	printf("# mode %s, %u records per CPU, buffer_size_kb %u\n", mode, n, kb);
	for (cpu = next_cpu(-1); cpu >= 0; cpu = next_cpu(cpu)) {
		struct cpu_state *s = &st[cpu];
		unsigned long over = stat_field(cpu, "overrun");
		unsigned long drop = stat_field(cpu, "dropped events");
		unsigned long cover = stat_field(cpu, "commit overrun");
		unsigned long tail = n - s->next;

		printf("# cpu%d: read %lu, missing %lu + %lu at the end\n",
		       cpu, s->read, s->lost_seen, tail);
		printf("#   stats: overrun %lu, dropped %lu, commit overrun %lu\n",
		       over, drop, cover);
		printf("#   %lu pages, %lu with missed flag (%lu without count)\n",
		       s->pages, s->missed_flags, s->unknown_missed);
		printf("#   padding %lu, extend %lu, time stamp %lu records\n",
		       s->padding, s->extend, s->stamp);
		if (s->read + s->lost_seen + tail != n)
			fail("cpu%d: read %lu + missing %lu + %lu != written %u",
			     cpu, s->read, s->lost_seen, tail, n);
		if (over + drop + cover != s->lost_seen + tail)
			fail("cpu%d: stats count %lu lost, %lu records are missing",
			     cpu, over + drop + cover, s->lost_seen + tail);
		if (concurrent && !may_lose && s->lost_seen + tail)
			fail("cpu%d: lost records with a reader and room", cpu);
		if (gap_us && (s->lost_seen || tail))
			fail("cpu%d: lost records in an almost empty buffer", cpu);
		if (!concurrent && !gap_us && !s->lost_seen && !tail)
			fail("cpu%d: %s mode lost nothing: the test did not fill the buffer",
			     cpu, mode);
		if (overwrite && tail)
			fail("cpu%d: flight recorder lost the newest records", cpu);
		if (!overwrite && !concurrent && s->lost_seen)
			fail("cpu%d: discard mode lost records before the newest", cpu);
	}
	ksft_test_result(!failures, "rb_compat %s\n", mode);
	ksft_finished();
}
