/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs helpers for the ring_buffer selftests written in C.  They
 * report failure by return value (errno set) and leave it to the caller
 * whether to fail the test, skip it, or go on.
 */
#ifndef RB_TRACEFS_H
#define RB_TRACEFS_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing"

/* The first line of @file, without its newline, into @buf: 0, or -1. */
static inline int tfs_read(const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Write @val to @file: 0, or -1 (EIO for a short write). */
static inline int tfs_write(const char *file, const char *val)
{
	size_t len = strlen(val);
	char path[256];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = err;
	return -1;
}

/*
 * The size of a sub-buffer, what one read of trace_pipe_raw hands over:
 * buffer_subbuf_size_kb where the kernel has it, else a page.
 */
static inline long subbuf_size(void)
{
	char buf[32];
	long kb;

	if (!tfs_read("buffer_subbuf_size_kb", buf, sizeof(buf))) {
		kb = strtol(buf, NULL, 10);
		if (kb > 0)
			return kb * 1024;
	}
	return sysconf(_SC_PAGESIZE);
}

#endif /* RB_TRACEFS_H */
