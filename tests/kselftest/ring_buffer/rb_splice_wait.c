// SPDX-License-Identifier: GPL-2.0
/*
 * A blocking splice() of per_cpu/cpuN/trace_pipe_raw while that CPU's
 * buffer holds a record but no whole sub-buffer to hand over:
 *
 *  - buffer_percent 0 (wake on any data): the wait ends at once, since
 *    the buffer is not empty, so the splice must return (nothing whole to
 *    move: 0) instead of waiting again and again inside the kernel, deaf
 *    to signals, until a sub-buffer fills.  The splice runs on another
 *    CPU than the buffer's, whose writer fills a sub-buffer FILL_S
 *    seconds later, so that a kernel that spins stops spinning and the
 *    test ends; the CPU time the splice took tells.  (On one CPU the
 *    spin would never end: skipped.)
 *  - buffer_percent 50: the splice must sleep, without using the CPU,
 *    until the watermark or a signal (here an alarm: EINTR).
 *  - buffer_subbuf_size_kb changed while a splice waits (from one page
 *    to four, then from four to one): what the splice then moves must be
 *    whole sub-buffers of the new size, each in a pipe buffer of that
 *    size, whose records, walked from the header to its commit, are the
 *    markers written after the change.  The same for a read() that
 *    waits: it must return a sub-buffer of the new size, not 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rb_format.h"
#include "rb_tracefs.h"

#define ALARM_S		3
#define FILL_S		1
#define SPIN_S		0.2	/* CPU seconds no splice takes unless it spins */

#define SIZE_WAIT_S	1	/* the splice is asleep by then */
#define SIZE_TAG	"rb_splice_wait: after the size change"

static char saved_percent[16], saved_on[16], saved_kb[16];

static void restore(void)
{
	tfs_write("buffer_percent", saved_percent);
	tfs_write("tracing_on", saved_on);
	if (saved_kb[0])
		tfs_write("buffer_subbuf_size_kb", saved_kb);
	tfs_write("trace", "");
}

static void on_alarm(int sig)
{
}

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One blocking splice of @fd into @pipe_w with buffer_percent @percent;
 * its result, errno, wall and CPU seconds in the out parameters.
 */
static ssize_t splice_once(int fd, int pipe_w, long len, const char *percent,
			   int *err, double *wall, double *cpu)
{
	double t0, c0;
	ssize_t r;

	if (tfs_write("buffer_percent", percent))
		ksft_exit_fail_msg("cannot set buffer_percent to %s\n", percent);
	t0 = seconds(CLOCK_MONOTONIC);
	c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
	alarm(ALARM_S);
	r = splice(fd, NULL, pipe_w, NULL, len, 0);
	*err = errno;
	alarm(0);
	*wall = seconds(CLOCK_MONOTONIC) - t0;
	*cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
	return r;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
}

static void mark(int fd, const char *text)
{
	if (write(fd, text, strlen(text)) < 0)
		ksft_exit_fail_msg("trace_marker: %s\n", strerror(errno));
}

/*
 * An empty buffer, then a child on @cpu writes one record there (a
 * partial sub-buffer) and, if @fill_bytes, that many more bytes of
 * records FILL_S seconds later.  Returns once the first record is in.
 */
static pid_t one_record(int cpu, long fill_bytes)
{
	static const char line[] =
		"rb_splice_wait: filling a sub-buffer, 64 bytes a record.....\n";
	int fd, sync[2];
	pid_t pid;
	char c;
	long n;

	if (tfs_write("tracing_on", "0") || tfs_write("trace", "") ||
	    tfs_write("tracing_on", "1"))
		ksft_exit_fail_msg("cannot reset the buffer\n");
	if (pipe(sync))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		pin(cpu);
		fd = open(TRACEFS "/trace_marker", O_WRONLY);
		if (fd < 0)
			_exit(1);
		mark(fd, "rb_splice_wait\n");
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		if (fill_bytes) {
			sleep(FILL_S);
			for (n = 0; n < fill_bytes; n += sizeof(line))
				mark(fd, line);
		}
		_exit(0);
	}
	close(sync[1]);
	if (read(sync[0], &c, 1) != 1)
		ksft_exit_fail_msg("the writer on CPU %d failed\n", cpu);
	close(sync[0]);
	return pid;
}

/*
 * Walk the records of the sub-buffer at @sb, @size bytes: NULL when they
 * chain exactly to its commit and every data record holds SIZE_TAG, else
 * what is wrong.
 */
static const char *walk_subbuf(const unsigned char *sb, long size)
{
	static struct rb_walk w;	/* static: w.err outlives the call */

	if (!rb_walk_begin(&w, sb, size))
		return w.err;
	if (!w.commit)
		return "no records";
	while (rb_walk_next(&w))
		if (rb_walk_is_data(&w) &&
		    !memmem(w.data + w.off, w.len, SIZE_TAG, strlen(SIZE_TAG)))
			return "a record that is not a marker written after the change";
	return w.err[0] ? w.err : NULL;
}

/*
 * A splice (buffer_percent 1), or with @use_read a read(), of @cpu's
 * trace_pipe_raw waits with sub-buffers of @from_kb; a child then sets
 * them to @to_kb and writes records on @cpu until the reader has
 * something to take.  What it took must be sub-buffers of the new size.
 */
static void size_change(int cpu, long from_kb, long to_kb, bool use_read)
{
	const char *how = use_read ? "read" : "splice";
	char name[64];
	static const char line[] = SIZE_TAG "\n";
	long to = to_kb * 1024, len = 4 * (from_kb > to_kb ? from_kb : to_kb) * 1024;
	char path[256], kb[24], *buf;
	const char *what;
	int fd, mfd, pipefd[2], err, status;
	double wall, cpu_s;
	ssize_t r, got;
	pid_t pid;
	long n;

	snprintf(name, sizeof(name), "size %ld -> %ld KiB, %s", from_kb, to_kb, how);
	snprintf(kb, sizeof(kb), "%ld", from_kb);
	if (tfs_write("buffer_subbuf_size_kb", kb) || tfs_write("tracing_on", "0") ||
	    tfs_write("trace", "") || tfs_write("tracing_on", "1"))
		ksft_exit_fail_msg("cannot set up %ld KiB sub-buffers: %s\n",
				   from_kb, strerror(errno));
	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	fd = open(path, O_RDONLY);
	buf = malloc(len);
	if (fd < 0 || !buf || pipe(pipefd))
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	/* Room in the pipe for all the splice may move */
	fcntl(pipefd[1], F_SETPIPE_SZ, len);

	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		sleep(SIZE_WAIT_S);
		snprintf(kb, sizeof(kb), "%ld", to_kb);
		if (tfs_write("buffer_subbuf_size_kb", kb))
			_exit(2);
		pin(cpu);
		mfd = open(TRACEFS "/trace_marker", O_WRONLY);
		if (mfd < 0)
			_exit(1);
		for (n = 0; n < 2 * len; n += sizeof(line))
			mark(mfd, line);
		_exit(0);
	}
	if (use_read) {
		/* A read waits for any data; a sub-buffer at most */
		alarm(ALARM_S);
		r = read(fd, buf, len);
		err = errno;
		alarm(0);
	} else {
		r = splice_once(fd, pipefd[1], len, "1", &err, &wall, &cpu_s);
	}
	waitpid(pid, &status, 0);
	close(fd);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ksft_test_result_fail("%s: the child failed (%s)\n", name,
				      WIFEXITED(status) && WEXITSTATUS(status) == 2 ?
				      "size write" : "trace_marker");
		goto out;
	}
	if (r <= 0) {
		ksft_test_result_fail("%s: returned %zd (%s)\n", name, r,
				      r ? strerror(err) : "nothing");
		goto out;
	}
	if (r % to) {
		ksft_test_result_fail("%s: got %zd bytes, not whole sub-buffers\n",
				      name, r);
		goto out;
	}
	for (got = use_read ? r : 0; got < r; got += n) {
		n = read(pipefd[0], buf + got, r - got);
		if (n <= 0) {
			ksft_test_result_fail("%s: pipe read at %zd of %zd: %s\n",
					      name, got, r, n ? strerror(errno) : "end");
			goto out;
		}
	}
	for (n = 0; n < r; n += to) {
		what = walk_subbuf((unsigned char *)buf + n, to);
		if (what) {
			ksft_test_result_fail("%s: sub-buffer at %ld of %zd: %s\n",
					      name, n, r, what);
			goto out;
		}
	}
	ksft_test_result_pass("%s: %zd sub-buffer(s) of %ld KiB after waiting\n",
			      name, r / to, to_kb);
out:
	free(buf);
	close(pipefd[0]);
	close(pipefd[1]);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	int fd, me, other, err, status, pipefd[2];
	double wall, cpu;
	char path[256];
	cpu_set_t set;
	pid_t writer;
	long len, page_kb;
	ssize_t r;
	int i;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must run as root\n");
	if (tfs_read("buffer_percent", saved_percent, sizeof(saved_percent)) ||
	    tfs_read("tracing_on", saved_on, sizeof(saved_on)))
		ksft_exit_skip("no " TRACEFS "/buffer_percent\n");
	if (sched_getaffinity(0, sizeof(set), &set))
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	me = sched_getcpu();
	for (other = 0; other < CPU_SETSIZE; other++)
		if (other != me && CPU_ISSET(other, &set))
			break;
	if (tfs_read("buffer_subbuf_size_kb", saved_kb, sizeof(saved_kb)))
		saved_kb[0] = '\0';
	ksft_set_plan(6);

	pin(me);
	atexit(restore);
	if (sigaction(SIGALRM, &sa, NULL) || pipe(pipefd))
		ksft_exit_fail_msg("sigaction, pipe: %s\n", strerror(errno));
	len = subbuf_size();

	if (other == CPU_SETSIZE) {
		/* On one CPU a kernel that spins would hang */
		ksft_test_result_skip("percent 0: needs two CPUs\n");
	} else {
		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", other);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
		writer = one_record(other, 2 * len);
		r = splice_once(fd, pipefd[1], len, "0", &err, &wall, &cpu);
		waitpid(writer, &status, 0);
		close(fd);
		if (r < 0)
			ksft_test_result_fail("percent 0: %s after %.1f s (CPU %.1f s)\n",
					      strerror(err), wall, cpu);
		else if (cpu > SPIN_S)
			ksft_test_result_fail("percent 0: spun %.1f s of CPU in %.1f s, got %zd\n",
					      cpu, wall, r);
		else
			ksft_test_result_pass("percent 0: returned %zd after %.3f s\n",
					      r, wall);
	}

	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", me);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	writer = one_record(me, 0);
	waitpid(writer, &status, 0);
	r = splice_once(fd, pipefd[1], len, "50", &err, &wall, &cpu);
	if (r >= 0)
		ksft_test_result_fail("percent 50: returned %zd after %.3f s, below the mark\n",
				      r, wall);
	else if (err != EINTR)
		ksft_test_result_fail("percent 50: %s\n", strerror(err));
	else if (cpu > SPIN_S)
		ksft_test_result_fail("percent 50: %.1f s of CPU in %.1f s of waiting\n",
				      cpu, wall);
	else
		ksft_test_result_pass("percent 50: slept %.1f s (CPU %.3f s) until a signal\n",
				      wall, cpu);
	close(fd);

	page_kb = sysconf(_SC_PAGESIZE) / 1024;
	snprintf(path, sizeof(path), "%ld", 4 * page_kb);
	if (!saved_kb[0] || tfs_write("buffer_subbuf_size_kb", path)) {
		/* The page-based buffer takes one page only (EINVAL) */
		for (i = 0; i < 4; i++)
			ksft_test_result_skip("size change: no sub-buffers of %s KiB\n", path);
	} else {
		for (i = 0; i < 2; i++) {
			size_change(me, page_kb, 4 * page_kb, i);
			size_change(me, 4 * page_kb, page_kb, i);
		}
	}

	ksft_finished();
}
