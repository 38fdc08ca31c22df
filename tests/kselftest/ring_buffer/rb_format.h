/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict walk of one sub-buffer as trace_pipe_raw hands it over, in
 * the binary format of 6.1's ring buffer on a 64-bit kernel: a 16-byte
 * header (the time stamp of the first record, then the commit: the
 * bytes of records, with the missed-events flags in bits 31 and 30), the
 * records chained by their lengths, and, when RB_MISSED_STORED is set,
 * the count of missed events in the long after the commit.  The kernel
 * adds the flags to the commit as ints, (1 << 31) being negative: with
 * RB_MISSED_EVENTS the 32 bits above are set as well.
 *
 * The walk checks what libtraceevent's kbuffer takes on trust: the
 * commit (and the missed count after it) fits the sub-buffer and the
 * bits above the flags are what 6.1 writes there, every record's length
 * is at least a header and a word, a multiple of four and within the
 * commit, the records end exactly at the commit, and no padding inside
 * it has a zero time delta (kbuffer would take that for "the rest is
 * unused" and stop reading there).
 * Which record types a test accepts is the test's business: the walk
 * hands each one over with its time.
 */
#ifndef RB_FORMAT_H
#define RB_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RB_HDR_BYTES		16
#define RB_MISSED_EVENTS	0x80000000UL
#define RB_MISSED_STORED	0x40000000UL
#define RB_COMMIT_MASK		0x3fffffffUL

/* Record types (type_len); 1-28 are data records of 4 * type_len bytes */
#define RB_TYPE_DATA_LONG	0	/* a data record, its length in a word */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31

struct rb_walk {
	const unsigned char *data;	/* the records, after the header */
	unsigned long flags;		/* the commit word's missed-events flags */
	unsigned long commit;		/* bytes of records */
	unsigned long off;		/* the current record's offset in data */
	unsigned long len;		/* its length, header included */
	unsigned int type;		/* its type_len */
	unsigned long long ts;		/* its time */
	char err[128];			/* why the walk stopped short, or "" */
};

static inline bool rb_walk_is_data(const struct rb_walk *w)
{
	return w->type < RB_TYPE_PADDING;
}

/*
 * Start a walk of the sub-buffer at @sb, @size bytes long: true, or
 * false with w->err set when its commit (and the missed count stored
 * after it) cannot be that of a sub-buffer of this size.
 */
static inline bool rb_walk_begin(struct rb_walk *w, const void *sb, long size)
{
	unsigned long word;

	memset(w, 0, sizeof(*w));
	memcpy(&w->ts, sb, sizeof(w->ts));
	memcpy(&word, (const unsigned char *)sb + 8, sizeof(word));
	w->data = (const unsigned char *)sb + RB_HDR_BYTES;
	w->flags = word & (RB_MISSED_EVENTS | RB_MISSED_STORED);	/* bits 31, 30 */
	w->commit = word & RB_COMMIT_MASK;
	if ((long)word != (long)(int32_t)(uint32_t)word ||
	    size < RB_HDR_BYTES || w->commit > (unsigned long)size - RB_HDR_BYTES ||
	    (word & RB_MISSED_STORED &&
	     w->commit + sizeof(long) > (unsigned long)size - RB_HDR_BYTES)) {
		snprintf(w->err, sizeof(w->err),
			 "commit word %#lx does not fit a sub-buffer of %ld bytes",
			 word, size);
		return false;
	}
	return true;
}

/*
 * Step @w to the next record: true with its type, offset, length and
 * time in @w; false at the end of the records, with w->err set if they
 * do not end exactly at the commit.
 */
static inline bool rb_walk_next(struct rb_walk *w)
{
	unsigned long off = w->off + w->len, left = w->commit - off;
	uint32_t word, arg = 0;
	unsigned int delta;

	if (off == w->commit)
		return false;
	memcpy(&word, w->data + off, 4);
	w->type = word & 0x1f;
	delta = word >> 5;
	if (left >= 8)
		memcpy(&arg, w->data + off + 4, 4);

	switch (w->type) {
	case RB_TYPE_PADDING:
		if (!delta) {
			snprintf(w->err, sizeof(w->err),
				 "padding with time delta 0 (the rest unused) at %lu of commit %lu",
				 off, w->commit);
			return false;
		}
		w->len = 4 + (unsigned long)arg;
		w->ts += delta;
		break;
	case RB_TYPE_TIME_EXTEND:
		w->len = 8;
		w->ts += ((unsigned long long)arg << 27) | delta;
		break;
	case RB_TYPE_TIME_STAMP:
		w->len = 8;
		w->ts = ((unsigned long long)arg << 27) | delta;
		break;
	case RB_TYPE_DATA_LONG:
		w->len = 4 + (unsigned long)arg;
		w->ts += delta;
		break;
	default:
		w->len = 4 + 4 * w->type;
		w->ts += delta;
		break;
	}
	w->off = off;
	if (left < 8 || w->len < 8 || w->len % 4 || w->len > left) {
		snprintf(w->err, sizeof(w->err),
			 "record type %u length %lu at %lu overruns commit %lu",
			 w->type, w->len, off, w->commit);
		return false;
	}
	return true;
}

/*
 * The missed-events count of the sub-buffer @w walks: 0 if none was
 * missed before it, -1 if some were but how many is not stored.
 */
static inline long rb_walk_missed(const struct rb_walk *w)
{
	long missed;

	if (!(w->flags & RB_MISSED_EVENTS))
		return 0;
	if (!(w->flags & RB_MISSED_STORED))
		return -1;
	memcpy(&missed, w->data + w->commit, sizeof(missed));
	return missed;
}

#endif /* RB_FORMAT_H */
