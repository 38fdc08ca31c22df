/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sub-buffer ring buffer: layout shared by the writer and reader halves.
 *
 * The protocol is described in Documentation/trace/ring-buffer-subbuf.rst
 * and model-checked by tools/tracing/rb-model/ring_buffer_subbuf.pml; the
 * functions here carry the names of the model's inline blocks.
 */
#ifndef _RING_BUFFER_SUBBUF_H
#define _RING_BUFFER_SUBBUF_H

#include <linux/ring_buffer.h>
#include <linux/irq_work.h>
#include <asm/local.h>

#define RB_ALIGNMENT		4U
#ifndef CONFIG_HAVE_64BIT_ALIGNED_ACCESS
# define RB_FORCE_8BYTE_ALIGNMENT	0
# define RB_ARCH_ALIGNMENT		RB_ALIGNMENT
#else
# define RB_FORCE_8BYTE_ALIGNMENT	1
# define RB_ARCH_ALIGNMENT		8U
#endif
#define RB_ALIGN_DATA		__aligned(RB_ARCH_ALIGNMENT)

/* Sub-buffer header, as events/header_page describes it. */
struct buffer_data_page {
	u64		time_stamp;	/* time of the first record */
	local_t		commit;		/* bytes of data, plus RB_MISSED_* */
	unsigned char	data[] RB_ALIGN_DATA;
};

/*
 * Flags in the commit word, with the values the page-based buffer gives
 * them: its (1 << 31) is an int, sign-extended when added to the word.
 */
#define RB_MISSED_EVENTS	((long)INT_MIN)
#define RB_MISSED_STORED	BIT(30)
#define RB_COMMIT_MASK		((1UL << 27) - 1)

#define BUF_PAGE_HDR_SIZE	offsetof(struct buffer_data_page, data)

/*
 * A sub-buffer is 2^order pages, the order set per buffer through
 * ring_buffer_subbuf_order_set() (buffer_subbuf_size_kb), 0 by default.
 * The largest order is mainline's: 128 pages.
 */
#define RB_SB_MAX_ORDER		7
#define RB_SB_MAX_SHIFT		(PAGE_SHIFT + RB_SB_MAX_ORDER)

#define RB_EVNT_HDR_SIZE	(offsetof(struct ring_buffer_event, array))
#define RB_MAX_SMALL_DATA	(RB_ALIGNMENT * RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
#define RB_LEN_TIME_STAMP	8U
#define TS_SHIFT		27
#define TS_MASK			((1ULL << TS_SHIFT) - 1)

/*
 * The consumed word: the reader's position (a free-running byte offset,
 * like the write offset) shifted left by RB_K_BITS, and the number of
 * records the reader has consumed in the sub-buffer of that position.
 * A record takes at least 8 bytes, so the count fits in RB_SB_MAX_SHIFT
 * - 2 bits for every sub-buffer size.  Positions are compared modulo
 * 2^(BITS_PER_LONG - RB_K_BITS), 2^47 bytes with 4 KiB pages.
 */
#define RB_K_BITS		(RB_SB_MAX_SHIFT - 2)
#define RB_K_MASK		((1UL << RB_K_BITS) - 1)
/* A quarter of the range positions are compared in */
#define RB_POS_QUARTER		(1UL << (BITS_PER_LONG - RB_K_BITS - 2))

/*
 * A sub-buffer id: the page number behind a sub-buffer index, the "no
 * reference" flag (delivered and no writer in it: the reader may swap
 * it out) and the generation it was delivered for.
 */
#define RB_ID_PAGE_BITS		24
#define RB_ID_PAGE_MASK		((1UL << RB_ID_PAGE_BITS) - 1)
#define RB_ID_NOREF		BIT(RB_ID_PAGE_BITS)
#define RB_ID_TAG_SHIFT		(RB_ID_PAGE_BITS + 1)
#define RB_ID(page, noref, gen)	((page) | ((noref) ? RB_ID_NOREF : 0) | \
				 ((unsigned long)(gen) << RB_ID_TAG_SHIFT))
#define RB_ID_TAG_MASK		(~0UL >> RB_ID_TAG_SHIFT)

/* Reservations open at once on one CPU: contexts times nest levels. */
#define RB_MAX_DEPTH		16

/*
 * The commit count of a sub-buffer counts bytes (cumulative over its
 * generations, modulo 2^RB_CC_REC_SHIFT) in its low bits and records
 * (modulo 2^RB_CC_REC_BITS) in its high bits, so that one
 * local_add_return() commits both.  A record takes at least 8 bytes, so a
 * generation holds fewer than 2^(RB_SB_MAX_SHIFT - 3) records: 2^16 in a
 * 512 KiB sub-buffer with 4 KiB pages, 2^20 in an 8 MiB one with 64 KiB
 * pages; the bytes then count modulo 2^48 and 2^44.  The byte count
 * carries into the record count once per 2^RB_CC_REC_SHIFT bytes written
 * through one sub-buffer index: the record count of that one generation
 * is then off by one (it only feeds the overrun and entries statistics).
 */
#define RB_CC_REC_BITS		(RB_SB_MAX_SHIFT - 3)
#define RB_CC_REC_SHIFT		(BITS_PER_LONG - RB_CC_REC_BITS)
#define RB_CC_BYTES_MASK	((1UL << RB_CC_REC_SHIFT) - 1)
#define RB_CC_REC_MASK		((1UL << RB_CC_REC_BITS) - 1)
#define RB_CC_RECORD		BIT(RB_CC_REC_SHIFT)

/*
 * Per sub-buffer index, in two arrays.  The writers touch the hot part on
 * every record (the commit count, the id behind rb_get_page()); the rest
 * is written once per generation, at a switch or a delivery, and read by
 * the reader once per sub-buffer.  Apart, a reader on another CPU that
 * reads the cold part of the sub-buffer it claims does not pull away the
 * line a writer is committing to.  Two words, so four entries share a
 * line: the reader's cmpxchg of one id per sub-buffer may meet the
 * writers' next few entries; aligning each entry to a line would cost
 * four times the memory for that.
 */
struct rb_sb_hot {
	local_t		cc;		/* records and bytes committed */
	unsigned long	id;		/* RB_ID() of the page behind it */
};

struct rb_sb_meta {
	unsigned long	cc_sb;		/* delivered up to this count, odd while claimed */
	unsigned long	rc_base;	/* records at the last delivery */
	unsigned long	nrec;		/* records of the last delivery */
	unsigned long	pad;		/* tail padding of this generation */
	unsigned long	drop_mark;	/* dropped + commit overrun before it */
};

/* A reservation in progress, one per nesting depth. */
struct rb_wctx {
	unsigned long			begin;	/* slot (or sub-buffer) start */
	unsigned long			end;
	u64				ts;
	struct ring_buffer_event	*event;
};

struct rb_irq_work {
	struct irq_work			work;
	wait_queue_head_t		waiters;
	wait_queue_head_t		full_waiters;
	bool				waiters_pending;
	bool				full_waiters_pending;
	bool				wakeup_full;
};

/*
 * Four groups of fields, each starting a cache line: what every writer
 * and the reader read but only admin operations write; what this CPU's
 * writers write on every record (of which the reader reads only the
 * offset); the reader's own; and the wakeup flags.  A reader on another
 * CPU then takes the writers' line once per look at the offset, not on
 * every record it reads or every statistic a writer bumps, and a writer
 * takes the reader's line only when a reader waits.
 */
struct ring_buffer_per_cpu {
	/* ---- read-mostly: identity, switches, geometry ---- */
	int				cpu;
	atomic_t			record_disabled;
	struct trace_buffer		*buffer;
	unsigned long			nr_subbufs;	/* <= 1 << nr_shift */
	unsigned int			nr_shift;
	unsigned int			sb_shift;	/* log2(sub-buffer bytes) */
	struct rb_sb_hot		*hot;		/* nr_subbufs */
	struct rb_sb_meta		*meta;		/* nr_subbufs */
	struct buffer_data_page		**pages;	/* nr_subbufs + 1 */

	/* ---- write side: touched by the writers of this CPU ---- */
	unsigned int			current_context ____cacheline_aligned_in_smp;
	unsigned int			nest;
	unsigned int			depth;
	local_t				offset;		/* free-running */
	/* (time << 32) | low 32 bits of the offset where that record ends */
	unsigned long			lts;
	u64				lts_hint;	/* full time, <= lts's */
	local_t				entries;	/* records committed */
	/* written on a push or a loss only */
	local_t				overrun;
	local_t				commit_overrun;
	/* wctx[0] on lines of its own, not across two */
	struct rb_wctx			wctx[RB_MAX_DEPTH] ____cacheline_aligned_in_smp;
	local_t				dropped_events;

	/* ---- read side, under reader_lock ---- */
	raw_spinlock_t			reader_lock ____cacheline_aligned_in_smp;
	atomic_t			resize_disabled;	/* iterators */
	unsigned long			consumed;
	unsigned long			rpage;		/* reader's own page */
	unsigned long			r_sbs;		/* its sub-buffer start */
	unsigned long			r_head;		/* next record in it */
	unsigned long			r_end;		/* end of claimed data */
	unsigned long			r_next;		/* the ring after it */
	unsigned long			r_from;		/* claimed on from here */
	bool				r_whole;	/* a delivered sub-buffer */
	bool				r_moving;	/* rb_reader_moving() */
	int				r_owner;	/* CPU holding reader_lock */
	bool				r_nmi_gave_up;	/* rb_reader_lock_nmi() */
	u64				r_ts;		/* time before r_head */
	unsigned long			r_copied;	/* partial copy of r_sbs ... */
	u64				r_copied_ts;	/* ... up to here; its time */
	unsigned long			seen_overrun;	/* losses noted ... */
	unsigned long			seen_drops;
	unsigned long			lost_pending;	/* ... not reported yet */
	unsigned long			read;		/* records consumed */
	unsigned long			resets;		/* rb_reset_cpu() calls */
	bool				reset_quiesced;	/* by rb_reset_cpus() */
	struct buffer_data_page		*free_page;	/* for read_page */

	/* ---- set by a reader about to wait, read on every commit ---- */
	struct rb_irq_work		irq_work ____cacheline_aligned_in_smp;
	int				shortest_full;
};

/* Sub-buffer size in bytes, its mask, and the data bytes after the header */
static __always_inline unsigned long
rb_sb_size(const struct ring_buffer_per_cpu *cpu_buffer)
{
	return 1UL << cpu_buffer->sb_shift;
}

static __always_inline unsigned long
rb_sb_mask(const struct ring_buffer_per_cpu *cpu_buffer)
{
	return rb_sb_size(cpu_buffer) - 1;
}

static __always_inline unsigned long
rb_data_size(const struct ring_buffer_per_cpu *cpu_buffer)
{
	return rb_sb_size(cpu_buffer) - BUF_PAGE_HDR_SIZE;
}

/* The largest record payload: a sub-buffer of one record, long header */
static __always_inline unsigned long
rb_max_data_size(const struct ring_buffer_per_cpu *cpu_buffer)
{
	return rb_data_size(cpu_buffer) - sizeof(u32) * 2;
}

#ifdef CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS
/*
 * Test kernels only: points on the writers' paths where the state a
 * writer has read can be changed under it by writers nested in it, and
 * three under the reader lock, where writers or a reader in NMI on its
 * CPU can find the reader's page, or the ring of a resize, half moved.
 * ring_buffer_set_test_hook() lets a test run nested writers or readers
 * there at will, instead of waiting for an interrupt storm to land there.
 */
enum rb_test_point {
	RB_TEST_NEW_SUBBUF,	/* before the checks of rb_new_subbuf() */
	RB_TEST_PUSHED,		/* just after a push in rb_push_reader() */
	RB_TEST_RESERVED,	/* offset cmpxchg done, time word not yet stored */
	/* under the reader lock, after the writers' */
	RB_TEST_SWAPPED,	/* page swapped into the ring, not claimed yet */
	RB_TEST_HANDED_OVER,	/* read_page: the caller's page is the reader's */
	RB_TEST_GEOMETRY,	/* resize: reader's page swapped, old ring; subbuf
				 * size: new ring, old positions
				 */
	RB_TEST_NR_POINTS,
	RB_TEST_FIRST_READER = RB_TEST_SWAPPED,	/* the reader lock's from here on */
};

typedef void (*rb_test_hook_fn)(struct trace_buffer *buffer, int cpu,
				enum rb_test_point where);
void ring_buffer_set_test_hook(struct trace_buffer *buffer, rb_test_hook_fn fn);
void ring_buffer_test_age_reader(struct trace_buffer *buffer, int cpu,
				 unsigned long bytes);
#endif

/*
 * What every write reads comes first; the waiters' flags, which a reader
 * sets before it waits, on lines of their own, as in ring_buffer_per_cpu.
 */
struct trace_buffer {
	unsigned int			flags;
	int				cpus;
	atomic_t			record_disabled;
	atomic_t			resizing;
	cpumask_var_t			cpumask;
	struct ring_buffer_per_cpu	**buffers;
	u64				(*clock)(void);
	bool				time_stamp_abs;
	unsigned int			subbuf_order;	/* of every CPU's */
#ifdef CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS
	rb_test_hook_fn			test_hook;
#endif
	struct lock_class_key		*reader_lock_key;
	struct mutex			mutex;		/* resize, reset, mode */
	struct hlist_node		node;
	struct rb_irq_work		irq_work ____cacheline_aligned_in_smp;
};

struct ring_buffer_iter {
	struct ring_buffer_per_cpu	*cpu_buffer;
	unsigned long			pos;	/* next record to look at */
	u64				ts;	/* time before it */
	unsigned long			next_pos;
	u64				next_ts;
	u64				ev_ts;
	bool				ts_valid;
	bool				have_event;
	bool				missed;
	unsigned long			resets;	/* the CPU buffer's, at reset */
	struct ring_buffer_event	*event;	/* copy of the current one */
	unsigned long			event_size;	/* bytes at event */
};

#endif /* _RING_BUFFER_SUBBUF_H */
