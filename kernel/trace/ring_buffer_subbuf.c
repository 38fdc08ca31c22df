// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-buffer reserve/commit ring buffer.
 *
 * Each CPU writes into n sub-buffers of one page.  Writers reserve
 * space with one local_cmpxchg() on a free-running offset and commit by
 * adding to the sub-buffer's commit count; the writer whose commit
 * completes a sub-buffer delivers it.  Nothing on the write path takes a
 * lock or disables interrupts, so task, softirq, irq and NMI writers nest.
 * The reader owns a spare page that it swaps with a delivered sub-buffer,
 * so a sub-buffer being read is never written.  After Desnoyers and
 * Dagenais, and LTTng's ring buffer library.
 *
 * Documentation/trace/ring-buffer-subbuf.rst describes the protocol;
 * tools/tracing/rb-model/ring_buffer_subbuf.pml is its Spin model, whose
 * inline blocks carry the names of the functions below.
 */
#include <linux/trace_recursion.h>
#include <linux/trace_events.h>
#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/sched/clock.h>
#include <linux/trace_seq.h>
#include <linux/spinlock.h>
#include <linux/irq_work.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/oom.h>
#include <linux/mm.h>

#include <asm/local.h>

#include "ring_buffer_subbuf.h"

/* Used for individual buffers (after the counter) */
#define RB_BUFFER_OFF		BIT(20)

#define for_each_buffer_cpu(buffer, cpu)		\
	for_each_cpu(cpu, (buffer)->cpumask)

#define RB_WARN_ON(b, cond)						\
	({								\
		int _____ret = unlikely(cond);				\
		if (_____ret)						\
			atomic_inc(&(b)->record_disabled);		\
		WARN_ON(_____ret);					\
	})

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

static __always_inline unsigned int
rb_event_data_length(struct ring_buffer_event *event)
{
	unsigned int length;

	if (event->type_len)
		length = event->type_len * RB_ALIGNMENT;
	else
		length = event->array[0];
	return length + RB_EVNT_HDR_SIZE;
}

/*
 * Total length of any record; 0 for the "rest unused" padding, which is
 * padding with a zero delta (as rb_null_event() in the page-based buffer):
 * its length word is not read, since it may lie past the sub-buffer.
 */
static unsigned int rb_record_length(struct ring_buffer_event *event)
{
	switch (event->type_len) {
	case RINGBUF_TYPE_PADDING:
		if (!event->time_delta)
			return 0;
		return event->array[0] + RB_EVNT_HDR_SIZE;
	case RINGBUF_TYPE_TIME_EXTEND:
	case RINGBUF_TYPE_TIME_STAMP:
		return RB_LEN_TIME_STAMP;
	default:
		return rb_event_data_length(event);
	}
}

static __always_inline bool rb_is_data(struct ring_buffer_event *event)
{
	return event->type_len <= RINGBUF_TYPE_DATA_TYPE_LEN_MAX;
}

static u64 rb_extend_value(struct ring_buffer_event *event)
{
	return ((u64)event->array[0] << TS_SHIFT) | event->time_delta;
}

/*
 * Apply a record to a reader's running time, as user space does: add the
 * delta of data, padding and TIME_EXTEND records; a TIME_STAMP replaces
 * the time (the reader keeps the bits above the 59 it holds).
 */
static __always_inline u64 rb_apply_ts(struct ring_buffer_event *event, u64 ts)
{
	switch (event->type_len) {
	case RINGBUF_TYPE_TIME_EXTEND:
		return ts + rb_extend_value(event);
	case RINGBUF_TYPE_TIME_STAMP:
		return (ts & ~((1ULL << 59) - 1)) | rb_extend_value(event);
	default:
		return ts + event->time_delta;
	}
}

/**
 * ring_buffer_event_length - the length of the payload of a record
 * @event: the record, as returned by ring_buffer_lock_reserve(),
 *	ring_buffer_peek(), ring_buffer_consume() or ring_buffer_iter_peek()
 *
 * Return: the size of the payload of a data record.  For any other
 * record (padding, TIME_EXTEND, TIME_STAMP) the size of the whole record.
 */
unsigned int ring_buffer_event_length(struct ring_buffer_event *event)
{
	unsigned int length;

	if (event->type_len > RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
		return rb_record_length(event);
	length = rb_event_data_length(event) - RB_EVNT_HDR_SIZE;
	if (length > RB_MAX_SMALL_DATA + sizeof(event->array[0]) ||
	    RB_FORCE_8BYTE_ALIGNMENT)
		length -= sizeof(event->array[0]);
	return length;
}
EXPORT_SYMBOL_GPL(ring_buffer_event_length);

/* Bytes a record of payload @length takes, header included. */
static __always_inline unsigned long rb_event_len(unsigned long length)
{
	if (!length)
		length++;
	if (length > RB_MAX_SMALL_DATA || RB_FORCE_8BYTE_ALIGNMENT)
		length += sizeof(u32);
	length += RB_EVNT_HDR_SIZE;
	length = ALIGN(length, RB_ARCH_ALIGNMENT);
	/*
	 * A discarded record becomes padding plus a TIME_STAMP (see
	 * rb_discard()): keep lengths at 8 or at least 16 bytes.
	 */
	if (length == RB_LEN_TIME_STAMP + RB_ALIGNMENT)
		length += RB_ALIGNMENT;
	return length;
}

static __always_inline void
rb_set_data_header(struct ring_buffer_event *event, unsigned long len, u32 delta)
{
	event->time_delta = delta;
	len -= RB_EVNT_HDR_SIZE;
	if (len > RB_MAX_SMALL_DATA || RB_FORCE_8BYTE_ALIGNMENT) {
		event->type_len = 0;
		event->array[0] = len;
	} else {
		event->type_len = DIV_ROUND_UP(len, RB_ALIGNMENT);
	}
}

static __always_inline void
rb_set_time_record(struct ring_buffer_event *event, int type, u64 val)
{
	event->type_len = type;
	event->time_delta = val & TS_MASK;
	event->array[0] = val >> TS_SHIFT;
}

/* ------------------------------------------------------------------ */
/* Geometry                                                            */
/* ------------------------------------------------------------------ */

/*
 * An offset holds, from the top: the generation, the sub-buffer index in
 * nr_shift bits (2^nr_shift >= nr_subbufs) and the position in the
 * sub-buffer.  Indexes from nr_subbufs up to 2^nr_shift - 1 are never
 * used: the sub-buffer after the last one is index 0 of the next
 * generation (rb_next_sbs()).  So sizes need not be powers of two, and
 * the fast path still finds index and generation with a mask and a shift.
 */
static __always_inline unsigned long
rb_idx(struct ring_buffer_per_cpu *cpu_buffer, unsigned long off)
{
	return (off >> cpu_buffer->sb_shift) & ((1UL << cpu_buffer->nr_shift) - 1);
}

static __always_inline unsigned long
rb_gen(struct ring_buffer_per_cpu *cpu_buffer, unsigned long off)
{
	return off >> (cpu_buffer->sb_shift + cpu_buffer->nr_shift);
}

/*
 * rb_sbs_at(): where the next record goes when the offset is at a
 * sub-buffer boundary @off.  An exact fill of the last sub-buffer leaves
 * the offset at the unused index nr_subbufs: that is index 0 of the next
 * generation.  Readers see the offset through it (rb_read_offset()).
 */
static __always_inline unsigned long
rb_sbs_at(struct ring_buffer_per_cpu *cpu_buffer, unsigned long off)
{
	if (unlikely(rb_idx(cpu_buffer, off) >= cpu_buffer->nr_subbufs))
		off = (rb_gen(cpu_buffer, off) + 1) <<
			(cpu_buffer->sb_shift + cpu_buffer->nr_shift);
	return off;
}

static __always_inline unsigned long
rb_read_offset(struct ring_buffer_per_cpu *cpu_buffer)
{
	return rb_sbs_at(cpu_buffer, local_read(&cpu_buffer->offset));
}

/* The start of the sub-buffer after the one that holds @off. */
static __always_inline unsigned long
rb_next_sbs(struct ring_buffer_per_cpu *cpu_buffer, unsigned long off)
{
	return rb_sbs_at(cpu_buffer, (off | rb_sb_mask(cpu_buffer)) + 1);
}

/* Sub-buffers from the start of generation 0 to the one that holds @off. */
static unsigned long rb_sb_seq(struct ring_buffer_per_cpu *cpu_buffer,
			       unsigned long off)
{
	return rb_gen(cpu_buffer, off) * cpu_buffer->nr_subbufs +
		rb_idx(cpu_buffer, off);
}

/*
 * rb_prev_subbuf(): index and generation of the sub-buffer before the one
 * that starts at @sbs (a position rb_sbs_at() gave).  False at the start
 * of generation 0: there is none.
 */
static bool rb_prev_subbuf(struct ring_buffer_per_cpu *cpu_buffer,
			   unsigned long sbs, unsigned long *idx,
			   unsigned long *gen)
{
	*idx = rb_idx(cpu_buffer, sbs);
	*gen = rb_gen(cpu_buffer, sbs);
	if (*idx) {
		(*idx)--;
		return true;
	}
	if (!*gen)
		return false;
	(*gen)--;
	*idx = cpu_buffer->nr_subbufs - 1;
	return true;
}

/*
 * Commit counts are cumulative: generation g of a sub-buffer is complete
 * when its byte count reaches (g + 1) * rb_sb_size(), modulo
 * 2^RB_CC_REC_SHIFT.
 */
static __always_inline bool rb_cc_eq(unsigned long a, unsigned long b)
{
	return !((a - b) & RB_CC_BYTES_MASK);
}

static __always_inline unsigned long
rb_gen_count(struct ring_buffer_per_cpu *cpu_buffer, unsigned long gen)
{
	return gen << cpu_buffer->sb_shift;
}

/*
 * Generation @gen of sub-buffer @idx has been delivered: rb_deliver()
 * stored its complete count in the delivered count, which stays until
 * the next generation's delivery.  rb_subbuf_delivered() asks another
 * question: whether the sub-buffer in the ring is still that delivery's,
 * not taken by a reader since.
 */
static __always_inline bool
rb_gen_delivered(struct ring_buffer_per_cpu *cpu_buffer, unsigned long idx,
		 unsigned long gen)
{
	return rb_cc_eq(READ_ONCE(cpu_buffer->meta[idx].cc_sb),
			rb_gen_count(cpu_buffer, gen + 1));
}

/* Consumed word helpers: positions are compared modulo 2^(64 - K). */
static __always_inline bool rb_pos_before(unsigned long a, unsigned long b)
{
	return (long)((a - b) << RB_K_BITS) < 0;
}

/* The full position of a consumed word, given the write offset @wpos. */
static __always_inline unsigned long rb_cpos(unsigned long cword, unsigned long wpos)
{
	return wpos - (((wpos << RB_K_BITS) - (cword & ~RB_K_MASK)) >> RB_K_BITS);
}

static __always_inline struct buffer_data_page *
rb_id_page(struct ring_buffer_per_cpu *cpu_buffer, unsigned long id)
{
	return cpu_buffer->pages[id & RB_ID_PAGE_MASK];
}

/*
 * Sub-buffer pages are compound pages of the buffer's order: the order
 * goes with the page, so that a page handed to a reader (read_page,
 * splice) is freed right after the order changed.
 */
static struct buffer_data_page *rb_alloc_sb_page(int node, gfp_t gfp,
						 unsigned int order)
{
	struct page *page = alloc_pages_node(node, gfp | __GFP_COMP, order);

	return page ? page_address(page) : NULL;
}

static void rb_free_sb_page(void *addr)
{
	struct page *page;

	if (!addr)
		return;
	page = virt_to_page(addr);
	__free_pages(page, compound_order(page));
}

static __always_inline u64 rb_time_stamp(struct trace_buffer *buffer)
{
	/* Skip the indirect call (retpoline) for the default clock */
	if (IS_ENABLED(CONFIG_RETPOLINE) && likely(buffer->clock == trace_clock_local))
		return trace_clock_local();
	return buffer->clock();
}

/* ------------------------------------------------------------------ */
/* Wake-ups                                                            */
/* ------------------------------------------------------------------ */

static size_t rb_dirty(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long wpos = rb_read_offset(cpu_buffer);
	unsigned long cpos = rb_cpos(READ_ONCE(cpu_buffer->consumed), wpos);
	size_t dirty = rb_sb_seq(cpu_buffer, wpos) - rb_sb_seq(cpu_buffer, cpos);
	unsigned long idx, gen;

	/*
	 * The offset at a boundary after records filled a sub-buffer
	 * exactly: the writers leave that one when the next writer delivers
	 * it (rb_deliver_prev()), so until then a splice cannot have it.
	 */
	if (dirty && !(wpos & rb_sb_mask(cpu_buffer)) &&
	    rb_prev_subbuf(cpu_buffer, wpos, &idx, &gen) &&
	    !rb_gen_delivered(cpu_buffer, idx, gen))
		dirty--;
	return dirty;
}

/*
 * A reader waiting for @full percent of the buffer (splice, which takes
 * whole sub-buffers only) needs at least one sub-buffer the writers have
 * left; the one they are in is counted as filled, as the page-based
 * buffer does, so that 100% can be reached.
 */
static bool full_hit(struct ring_buffer_per_cpu *cpu_buffer, int full)
{
	size_t nr = cpu_buffer->nr_subbufs;
	size_t dirty;

	if (!full)
		return true;
	dirty = rb_dirty(cpu_buffer);
	return dirty && (dirty + 1) * 100 >= full * nr;
}

/*
 * The reader lock, and the CPU that holds it (r_owner): a reader in NMI
 * that finds the lock held must know whether the holder is the code it
 * interrupted (rb_reader_lock_nmi()).  Every holder takes the lock through
 * these or through rb_reader_lock().
 */
#define RB_NO_OWNER	(-1)

static __always_inline void rb_reader_lock_irqsave(struct ring_buffer_per_cpu *cpu_buffer,
						   unsigned long *flags)
	__acquires(&cpu_buffer->reader_lock)
{
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, *flags);
	WRITE_ONCE(cpu_buffer->r_owner, raw_smp_processor_id());
}

static __always_inline void rb_reader_released(struct ring_buffer_per_cpu *cpu_buffer)
{
	WRITE_ONCE(cpu_buffer->r_owner, RB_NO_OWNER);
	WRITE_ONCE(cpu_buffer->r_nmi_gave_up, false);
}

static __always_inline void rb_reader_unlock_irqrestore(struct ring_buffer_per_cpu *cpu_buffer,
							unsigned long flags)
	__releases(&cpu_buffer->reader_lock)
{
	rb_reader_released(cpu_buffer);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}

static void rb_wake_up_waiters(struct irq_work *work)
{
	struct rb_irq_work *rbwork = container_of(work, struct rb_irq_work, work);

	wake_up_all(&rbwork->waiters);
	if (READ_ONCE(rbwork->full_waiters_pending) ||
	    READ_ONCE(rbwork->wakeup_full)) {
		/* Only cpu_buffer sets the above flags */
		struct ring_buffer_per_cpu *cpu_buffer =
			container_of(rbwork, struct ring_buffer_per_cpu, irq_work);
		unsigned long flags;

		rb_reader_lock_irqsave(cpu_buffer, &flags);
		WRITE_ONCE(rbwork->wakeup_full, false);
		WRITE_ONCE(rbwork->full_waiters_pending, false);
		cpu_buffer->shortest_full = 0;
		rb_reader_unlock_irqrestore(cpu_buffer, flags);

		wake_up_all(&rbwork->full_waiters);
	}
}

/*
 * The waiters' flags are set by readers on other CPUs without a lock
 * (rb_wait_cond(), ring_buffer_poll_wait()): marked accesses.
 */
static __always_inline void
rb_wakeups(struct trace_buffer *buffer, struct ring_buffer_per_cpu *cpu_buffer)
{
	if (READ_ONCE(buffer->irq_work.waiters_pending)) {
		WRITE_ONCE(buffer->irq_work.waiters_pending, false);
		/* irq_work_queue() supplies its own memory barriers */
		irq_work_queue(&buffer->irq_work.work);
	}

	if (READ_ONCE(cpu_buffer->irq_work.waiters_pending)) {
		WRITE_ONCE(cpu_buffer->irq_work.waiters_pending, false);
		irq_work_queue(&cpu_buffer->irq_work.work);
	}
}

/* After a delivery: wake readers waiting for a fill level. */
static void rb_wakeup_full(struct ring_buffer_per_cpu *cpu_buffer)
{
	if (!READ_ONCE(cpu_buffer->irq_work.full_waiters_pending))
		return;
	if (!full_hit(cpu_buffer, READ_ONCE(cpu_buffer->shortest_full)))
		return;
	WRITE_ONCE(cpu_buffer->irq_work.wakeup_full, true);
	WRITE_ONCE(cpu_buffer->irq_work.full_waiters_pending, false);
	irq_work_queue(&cpu_buffer->irq_work.work);
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

#ifdef CONFIG_RING_BUFFER_RECORD_RECURSION
# define do_ring_buffer_record_recursion()	\
	do_ftrace_record_recursion(_THIS_IP_, _RET_IP_)
#else
# define do_ring_buffer_record_recursion() do { } while (0)
#endif

/*
 * The same recursion protection as the page-based buffer: one bit per
 * context (NMI, irq, softirq, normal) and a transition bit, shifted by
 * the nesting that ring_buffer_nest_start() allows.
 */
enum {
	RB_CTX_TRANSITION,
	RB_CTX_NMI,
	RB_CTX_IRQ,
	RB_CTX_SOFTIRQ,
	RB_CTX_NORMAL,
	RB_CTX_MAX
};

#define NESTED_BITS	RB_CTX_MAX

static __always_inline int
trace_recursive_lock(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned int val = cpu_buffer->current_context;
	int bit = RB_CTX_NORMAL - interrupt_context_level();

	if (unlikely(val & (1 << (bit + cpu_buffer->nest)))) {
		/*
		 * Called while switching into an interrupt context before
		 * preempt_count() says so: use the transition bit.
		 */
		bit = RB_CTX_TRANSITION;
		if (val & (1 << (bit + cpu_buffer->nest))) {
			do_ring_buffer_record_recursion();
			return 1;
		}
	}

	val |= (1 << (bit + cpu_buffer->nest));
	cpu_buffer->current_context = val;

	return 0;
}

static __always_inline void
trace_recursive_unlock(struct ring_buffer_per_cpu *cpu_buffer)
{
	cpu_buffer->current_context &=
		cpu_buffer->current_context - (1 << cpu_buffer->nest);
}

void ring_buffer_nest_start(struct trace_buffer *buffer)
{
	struct ring_buffer_per_cpu *cpu_buffer;

	/* Enabled by ring_buffer_nest_end() */
	preempt_disable_notrace();
	cpu_buffer = buffer->buffers[raw_smp_processor_id()];
	cpu_buffer->nest += NESTED_BITS;
}

void ring_buffer_nest_end(struct trace_buffer *buffer)
{
	struct ring_buffer_per_cpu *cpu_buffer;

	cpu_buffer = buffer->buffers[raw_smp_processor_id()];
	cpu_buffer->nest -= NESTED_BITS;
	preempt_enable_notrace();
}

#ifdef CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS
/*
 * Decode a sub-buffer at delivery as a reader will: the records must
 * chain exactly to the commit size and their times never go backwards.
 */
static void rb_check_subbuf(struct ring_buffer_per_cpu *cpu_buffer,
			    struct buffer_data_page *bpage, unsigned long gen,
			    unsigned long nrec)
{
	unsigned long end = local_read(&bpage->commit) & RB_COMMIT_MASK;
	unsigned long off = 0, n = 0;
	u64 ts = bpage->time_stamp;
	u64 prev = ts;

	while (off < end) {
		struct ring_buffer_event *event = (void *)&bpage->data[off];
		unsigned int len = rb_record_length(event);

		if (!len || off + len > end)
			break;
		ts = rb_apply_ts(event, ts);
		if (rb_is_data(event) && ts < prev) {
			WARN_ONCE(1, "ring buffer: CPU %d time went back %llu -> %llu at %lu\n",
				  cpu_buffer->cpu, prev, ts, off);
			atomic_inc(&cpu_buffer->record_disabled);
			return;
		}
		if (rb_is_data(event)) {
			prev = ts;
			n++;
		}
		off += len;
	}
	if (off != end) {
		WARN_ONCE(1, "ring buffer: CPU %d sub-buffer %lu records end at %lu, commit %lu\n",
			  cpu_buffer->cpu, gen, off, end);
		atomic_inc(&cpu_buffer->record_disabled);
	} else if (n != nrec) {
		/* The commit count's records feed overrun: losses must add up */
		WARN_ONCE(1, "ring buffer: CPU %d sub-buffer %lu holds %lu records, its commit count %lu\n",
			  cpu_buffer->cpu, gen, n, nrec);
		atomic_inc(&cpu_buffer->record_disabled);
	}
}
#else
static inline void rb_check_subbuf(struct ring_buffer_per_cpu *cpu_buffer,
				   struct buffer_data_page *bpage,
				   unsigned long gen, unsigned long nrec) { }
#endif

/*
 * rb_deliver(): end-of-sub-buffer work, done once per generation by the
 * writer that claimed it (rb_claim_delivery()).  Record count and header
 * first, then the "no reference" flag and generation in the id, then the
 * delivered count, so that a writer seeing the count also finds the flag
 * to clear.
 */
static void rb_deliver(struct ring_buffer_per_cpu *cpu_buffer,
		       unsigned long idx, unsigned long gen, unsigned long cc)
{
	struct rb_sb_hot *h = &cpu_buffer->hot[idx];
	struct rb_sb_meta *m = &cpu_buffer->meta[idx];
	unsigned long id = READ_ONCE(h->id);
	struct buffer_data_page *bpage = rb_id_page(cpu_buffer, id);
	unsigned long rc = cc >> RB_CC_REC_SHIFT;

	m->nrec = (rc - m->rc_base) & RB_CC_REC_MASK;
	m->rc_base = rc;
	local_set(&bpage->commit, rb_data_size(cpu_buffer) - m->pad);
	m->pad = 0;
	rb_check_subbuf(cpu_buffer, bpage, gen, m->nrec);

	/*
	 * Header and record count before the flag: pairs with the full
	 * barrier of the reader's cmpxchg in rb_get_subbuf() and with the
	 * smp_rmb() after the delivered count in rb_iter_limit().
	 */
	smp_wmb();
	WRITE_ONCE(h->id, RB_ID(id & RB_ID_PAGE_MASK, 1, gen & RB_ID_TAG_MASK));
	/*
	 * The flag before the delivered count.  Writers run on this CPU
	 * (program order would do); for the iterator on another CPU this
	 * pairs with the smp_rmb() after the count in rb_iter_limit().
	 */
	smp_wmb();
	WRITE_ONCE(m->cc_sb, cc);

	rb_wakeup_full(cpu_buffer);
}

/*
 * rb_claim_delivery(): make this writer the one that delivers generation
 * @gen of sub-buffer @idx.  Two writers may find it complete: the one
 * whose commit completed it after the offset had left it
 * (rb_commit_closed()), and the first writer of the sub-buffer after it
 * (rb_deliver_prev()), nested in either order.  The delivered count of
 * the generation before, which rb_new_subbuf() saw when this one began,
 * is made odd by cmpxchg: no delivered count is odd (counts are
 * multiples of the sub-buffer size), so the claim differs from both
 * generations' counts, and rb_deliver() overwrites it.  Until then a
 * writer that wrapped the whole buffer meanwhile sees a commit overrun,
 * as it would before the delivery's last store.
 */
static bool rb_claim_delivery(struct ring_buffer_per_cpu *cpu_buffer,
			      unsigned long idx, unsigned long gen)
{
	struct rb_sb_meta *m = &cpu_buffer->meta[idx];
	unsigned long old = READ_ONCE(m->cc_sb);

	/* Claimed or delivered already */
	if (!rb_cc_eq(old, rb_gen_count(cpu_buffer, gen)))
		return false;
	return cmpxchg_local(&m->cc_sb, old, old | 1) == old;
}

/* Deliver generation @gen of sub-buffer @idx if complete and not claimed */
static void rb_deliver_complete(struct ring_buffer_per_cpu *cpu_buffer,
				unsigned long idx, unsigned long gen)
{
	unsigned long cc = local_read(&cpu_buffer->hot[idx].cc);

	if (rb_cc_eq(cc, rb_gen_count(cpu_buffer, gen + 1)) &&
	    rb_claim_delivery(cpu_buffer, idx, gen))
		rb_deliver(cpu_buffer, idx, gen, cc);
}

/* A commit at @begin that found the offset past its sub-buffer: a late one */
static noinline void rb_commit_closed(struct ring_buffer_per_cpu *cpu_buffer,
				      unsigned long begin)
{
	rb_deliver_complete(cpu_buffer, rb_idx(cpu_buffer, begin),
			    rb_gen(cpu_buffer, begin));
}

/*
 * rb_commit(): add @n bytes to the commit count of the sub-buffer that
 * holds @begin, then look at the offset.  While the offset is inside the
 * sub-buffer, a later commit completes it; while it is at its very end
 * (records filled it exactly), the next writer delivers it before it
 * begins the next one (rb_deliver_prev()).  Only a commit that finds the
 * offset past its sub-buffer reads the count, and delivers if it is
 * complete.  So the common commit never reads the count back, and the
 * record that fills a sub-buffer does no delivery work: the first record
 * of the next one, on the slow path anyway, does it.
 */
static __always_inline void
rb_commit(struct ring_buffer_per_cpu *cpu_buffer, unsigned long begin,
	  unsigned long n, bool record)
{
	unsigned long idx = rb_idx(cpu_buffer, begin);

	/*
	 * B: the record, and the offset cmpxchg that reserved it, before
	 * the commit count.  Matches A (count before offset) and C (count
	 * before data) in rb_partial_len(): a reader that sees this commit
	 * in the count also sees the offset past the record and the record.
	 * local_add() itself orders nothing across CPUs.
	 */
	smp_wmb();	/* B, matches A and C */
	local_add(n + (record ? RB_CC_RECORD : 0), &cpu_buffer->hot[idx].cc);
	/*
	 * D: the count before the offset, on this CPU, where the writers
	 * that can race with this one interrupt it.  If the writer that
	 * moves the offset past this sub-buffer runs after the add, its
	 * rb_deliver_prev() sees the count; if it runs before, this read
	 * sees the offset moved.  Either way one of them delivers.
	 */
	barrier();	/* D, matches E in rb_deliver_prev() */
	if (unlikely((begin ^ (local_read(&cpu_buffer->offset) - 1)) >>
		     cpu_buffer->sb_shift))
		rb_commit_closed(cpu_buffer, begin);
}

/*
 * rb_get_page(): the page behind sub-buffer index @idx for a writer with
 * a reservation in it.  The first writer of a generation finds the "no
 * reference" flag its previous delivery set and clears it by cmpxchg
 * (pairs with the reader's cmpxchg in rb_get_subbuf()): from then on the
 * reader cannot swap the page out.
 */
static __always_inline struct buffer_data_page *
rb_get_page(struct ring_buffer_per_cpu *cpu_buffer, unsigned long idx)
{
	struct rb_sb_hot *h = &cpu_buffer->hot[idx];
	unsigned long id;

	for (;;) {
		id = READ_ONCE(h->id);
		if (likely(!(id & RB_ID_NOREF)))
			break;
		if (cmpxchg(&h->id, id, id & ~RB_ID_NOREF) == id)
			break;
	}
	return rb_id_page(cpu_buffer, id);
}

#ifdef CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS
/**
 * ring_buffer_set_test_hook - run a function where nested writers race
 * @buffer: the buffer, idle (no writer or reader in it)
 * @fn: called by every writer of @buffer at each writer's rb_test_point,
 *	and by its readers and resizes at theirs (NULL: none), with the
 *	CPU of the CPU buffer at that point
 *
 * Test kernels only.  At a writer's point @fn runs on the writer's CPU
 * with preemption disabled, in the writer's context, with the nesting
 * that ring_buffer_nest_start() sets up: it may write to @buffer, as a
 * writer that interrupts that one there would.  At a point under the
 * reader lock (a reader's, a resize's) it runs on the CPU of the task
 * that holds the lock, which need not be the one read, with that CPU
 * buffer's reader lock held and interrupts off: it may write to
 * @buffer, or send an NMI that reads it.  A resize passes
 * RB_TEST_GEOMETRY once for each CPU buffer whose number of sub-buffers
 * it changes (at most one for a resize of one CPU), a change of the
 * sub-buffer size once for every CPU buffer; each time with that CPU
 * buffer's CPU.
 */
void ring_buffer_set_test_hook(struct trace_buffer *buffer, rb_test_hook_fn fn)
{
	WRITE_ONCE(buffer->test_hook, fn);
}
EXPORT_SYMBOL_GPL(ring_buffer_set_test_hook);

/**
 * ring_buffer_test_age_reader - make a reader's gapless run look longer
 * @buffer: the buffer
 * @cpu: the CPU buffer whose reader it is
 * @bytes: how much further back the run is to start
 *
 * Test kernels only.  Moves r_from, where the reader's claims have gone
 * on without a gap from, back by @bytes, as if the reader had kept up
 * with the writers for @bytes more: what hours of a busy CPU do to it,
 * without the hours.  The next claim that goes on from the last one
 * keeps r_from within a quarter of the position range (rb_reader_set()).
 */
void ring_buffer_test_age_reader(struct trace_buffer *buffer, int cpu,
				 unsigned long bytes)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return;
	cpu_buffer = buffer->buffers[cpu];
	rb_reader_lock_irqsave(cpu_buffer, &flags);
	cpu_buffer->r_from -= bytes;
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
}
EXPORT_SYMBOL_GPL(ring_buffer_test_age_reader);

static void rb_test_hook(struct ring_buffer_per_cpu *cpu_buffer,
			 enum rb_test_point where)
{
	rb_test_hook_fn fn = READ_ONCE(cpu_buffer->buffer->test_hook);

	if (!fn)
		return;
	/* A reader may run on another CPU: the nesting is the writers' */
	if (where >= RB_TEST_FIRST_READER) {
		fn(cpu_buffer->buffer, cpu_buffer->cpu, where);
		return;
	}
	cpu_buffer->nest += NESTED_BITS;
	fn(cpu_buffer->buffer, cpu_buffer->cpu, where);
	cpu_buffer->nest -= NESTED_BITS;
}
#else
#define rb_test_hook(cpu_buffer, where)	do { } while (0)
#endif

/*
 * rb_push_reader(): before the first reservation of a generation of a
 * sub-buffer, its previous generation must be consumed.  In discard mode
 * the writer fails (-ENOSPC); in flight-recorder mode it moves the
 * consumed position past it by cmpxchg (pairs with the reader's cmpxchg
 * in rb_consume) and counts what the reader had not consumed of it as
 * overrun.  This happens before the offset cmpxchg, so no writer stores
 * into the new generation while the reader may still claim the old one.
 *
 * The record count of the generation pushed out is read before the
 * cmpxchg.  Once the cmpxchg succeeds, writers nested in this one (an
 * interrupt storm) may begin, fill and deliver the next generation,
 * whose delivery rewrites it.  Before the cmpxchg, such a delivery would
 * have needed a push of its own, and the cmpxchg fails.
 */
static int rb_push_reader(struct ring_buffer_per_cpu *cpu_buffer,
			  unsigned long begin, struct rb_sb_meta *m)
{
	unsigned long span = 1UL << (cpu_buffer->sb_shift + cpu_buffer->nr_shift);
	/* Past the generation before @begin of the same sub-buffer */
	unsigned long want = rb_next_sbs(cpu_buffer, begin - span);
	unsigned long cword, nrec;

	for (;;) {
		cword = READ_ONCE(cpu_buffer->consumed);
		if (!rb_pos_before(cword >> RB_K_BITS, want))
			return 0;
		if (!(cpu_buffer->buffer->flags & RB_FL_OVERWRITE))
			return -ENOSPC;
		nrec = READ_ONCE(m->nrec);
		if (cmpxchg(&cpu_buffer->consumed, cword, want << RB_K_BITS) == cword) {
			rb_test_hook(cpu_buffer, RB_TEST_PUSHED);
			local_add(nrec - (cword & RB_K_MASK), &cpu_buffer->overrun);
			return 0;
		}
	}
}

/*
 * rb_deliver_prev(): by the writer about to begin the sub-buffer at
 * @begin, deliver the one before it if complete.  Its last commit left it
 * to this writer when it found the offset at its very end (rb_commit()).
 * The count is read before this writer's offset cmpxchg (E): a commit
 * that adds after the read sees the offset moved, or this writer's
 * cmpxchg fails and it comes here again.
 */
static void rb_deliver_prev(struct ring_buffer_per_cpu *cpu_buffer,
			    unsigned long begin)
{
	unsigned long idx, gen;

	if (rb_prev_subbuf(cpu_buffer, begin, &idx, &gen))
		rb_deliver_complete(cpu_buffer, idx, gen);
	barrier();	/* E, matches D in rb_commit() */
}

/*
 * A check of rb_new_subbuf() failed for the writer that read the offset
 * at @wpos.  If the offset has moved since, writers nested in this one began
 * that sub-buffer or later ones meanwhile, and what was checked is not
 * where the record would go: look again (the offset cmpxchg would fail
 * anyway).  Otherwise the record is lost: count it in @lost.
 */
static int rb_new_subbuf_failed(struct ring_buffer_per_cpu *cpu_buffer,
				unsigned long wpos, local_t *lost, int err)
{
	if (local_read(&cpu_buffer->offset) != wpos)
		return -EAGAIN;
	local_inc(lost);
	return err;
}

/*
 * Checks before the first reservation in sub-buffer generation @begin, by a
 * writer that read the offset at @wpos.  -EAGAIN: read the offset again.
 */
static noinline int rb_new_subbuf(struct ring_buffer_per_cpu *cpu_buffer,
				  unsigned long wpos, unsigned long begin)
{
	struct rb_sb_meta *m = &cpu_buffer->meta[rb_idx(cpu_buffer, begin)];
	unsigned long gen = rb_gen(cpu_buffer, begin);

	rb_test_hook(cpu_buffer, RB_TEST_NEW_SUBBUF);
	/*
	 * Before the checks: in discard mode a refused switch leaves the
	 * sub-buffer closed for the next attempt to deliver, and a reader
	 * may need it delivered to free space.
	 */
	rb_deliver_prev(cpu_buffer, begin);
	/*
	 * Commit overrun: a writer interrupted for a whole buffer wrap
	 * still has a record in the previous generation.
	 */
	if (!rb_cc_eq(READ_ONCE(m->cc_sb), rb_gen_count(cpu_buffer, gen)))
		return rb_new_subbuf_failed(cpu_buffer, wpos,
					    &cpu_buffer->commit_overrun, -EBUSY);
	/* Written by rb_deliver() on this CPU before cc_sb: program order */
	barrier();
	if (rb_push_reader(cpu_buffer, begin, m))
		return rb_new_subbuf_failed(cpu_buffer, wpos,
					    &cpu_buffer->dropped_events, -ENOSPC);
	/*
	 * Events lost at the writer's end (discard mode, commit overrun)
	 * are reported to the reader before this sub-buffer: it is where
	 * they are missing.  Stored before the offset cmpxchg, so before
	 * any commit the reader can see in this generation.
	 *
	 * A writer whose @wpos is stale (writers nested in it began this
	 * generation after it read the offset) stores here too, and its
	 * cmpxchg then fails.  It stores the value they stored: a loss is
	 * counted only by a writer that needs the sub-buffer after the one
	 * the offset is in and cannot have it, and that writer first closes
	 * this one (the fail path of rb_reserve_slow(), or a switch).  Closed,
	 * it is delivered as soon as the nested writers have committed, all
	 * before this writer runs again, and the commit overrun check above
	 * then sends this writer back (-EAGAIN).  So no loss is counted
	 * between their store and this one, nor between this writer's checks
	 * and their begin: the checks passed, and they do not un-pass.
	 */
	WRITE_ONCE(m->drop_mark, local_read(&cpu_buffer->dropped_events) +
		   local_read(&cpu_buffer->commit_overrun));
	return 0;
}

enum rb_ts_kind {
	RB_TS_DELTA,		/* delta to the record before it */
	RB_TS_EXTEND,		/* TIME_EXTEND with the delta in front */
	RB_TS_ABS,		/* TIME_STAMP with the time in front */
	RB_TS_FIRST,		/* first of a sub-buffer: time in its header */
};

/*
 * rb_ts_long_gap(): 2^32 ns or more since the hint.  The delta is exact
 * when the hint carries the word's 32 bits of time, and fits a
 * TIME_EXTEND (59 bits) when it is below 2^59 ns.
 */
static noinline enum rb_ts_kind
rb_ts_long_gap(unsigned long lts, u64 hint, u64 ts, u64 *delta)
{
	if ((u32)(lts >> 32) != (u32)hint || ts < hint ||
	    ts - hint >= (1ULL << (TS_SHIFT + 32)))
		return RB_TS_ABS;
	*delta = ts - hint;
	return RB_TS_EXTEND;
}

/*
 * How to time-stamp a record reserved at @wpos (not at a sub-buffer start)
 * at time @ts.  The delta is only known when @lts says the record ending
 * at @wpos has time (lts >> 32) and the hint (a time no later than that
 * record's) shows the 32 bits of difference are all of it.  After a gap
 * of 2^32 ns or more (an idle CPU) the hint is that record's time itself
 * when its low 32 bits are the word's: the record gets a TIME_EXTEND, as
 * in the page-based buffer, whose format readers know without absolute
 * time stamps.  TIME_STAMP is left for a writer that does not know the
 * time before it: one that interrupted another between its cmpxchg and
 * its rb_update_lts(), as the page-based buffer does for one that
 * interrupted a time update (RB_ADD_STAMP_FORCE).
 */
static __always_inline enum rb_ts_kind
rb_ts_kind(unsigned long wpos, unsigned long lts, u64 hint, u64 ts, u64 *delta)
{
	u32 d;

	if ((u32)lts != (u32)wpos)
		return RB_TS_ABS;
	if (unlikely(ts - hint >= (1ULL << 32)))
		return rb_ts_long_gap(lts, hint, ts, delta);
	d = (u32)ts - (u32)(lts >> 32);
	if (unlikely(d > ts - hint))
		return RB_TS_ABS;
	*delta = d;
	return likely(d <= TS_MASK) ? RB_TS_DELTA : RB_TS_EXTEND;
}

/*
 * rb_update_lts(): publish (time @ts, end @end) in one word for the next
 * writer.  The hint goes first: whoever matches the word reads a hint no
 * later than its time.  Same CPU only: program order.
 *
 * A plain store, as the page-based buffer stores its write stamp.  A
 * writer interrupted between its offset cmpxchg and this store by writers
 * that reserved after it publishes a pair that is true but no longer
 * matches the offset: the next record gets a TIME_STAMP.  Replacing the
 * word only if it is still @lts would spare that one TIME_STAMP, at the
 * price of a cmpxchg_local() on every record.  A stale pair cannot match
 * the offset again later: the writer has not committed yet, so nested
 * writers stop at its sub-buffer (commit overrun) and the offset stays
 * within one buffer span of @end.  The word compares 32 bits of offset,
 * so for a CPU buffer under 4 GiB that is exact; a larger one would need
 * 4 GiB of records written by interrupts nested in this writer.
 */
static __always_inline void
rb_update_lts(struct ring_buffer_per_cpu *cpu_buffer, u64 ts, unsigned long end)
{
	rb_test_hook(cpu_buffer, RB_TEST_RESERVED);
	WRITE_ONCE(cpu_buffer->lts_hint, ts);
	WRITE_ONCE(cpu_buffer->lts, (unsigned long)(ts << 32) | (u32)end);
}

/*
 * rb_switch_old(): the offset moved from @wpos, inside a sub-buffer, to the
 * next one (a record that did not fit, or the sub-buffer closed after a
 * refused switch): the rest of the old one counts as committed padding,
 * reserved and committed through rb_get_page() and rb_commit() as a
 * record is.  Its first word says "rest unused" (padding with a zero
 * delta): a sub-buffer closed after a refused switch, or one whose next
 * first record was reclaimed, leaves the offset at its very end, and
 * until a writer delivers it readers read it whole (rb_partial_len()),
 * with nothing else to stop them at the padding.  The word goes before
 * the commit (B in rb_commit()), as a record does.
 */
static noinline void rb_switch_old(struct ring_buffer_per_cpu *cpu_buffer,
				   unsigned long wpos)
{
	unsigned long idx = rb_idx(cpu_buffer, wpos);
	unsigned long in_sb = wpos & rb_sb_mask(cpu_buffer);
	struct buffer_data_page *bpage = rb_get_page(cpu_buffer, idx);
	struct ring_buffer_event *pad = (void *)bpage + in_sb;

	pad->type_len = RINGBUF_TYPE_PADDING;
	pad->time_delta = 0;
	cpu_buffer->meta[idx].pad = rb_sb_size(cpu_buffer) - in_sb;
	rb_commit(cpu_buffer, wpos, rb_sb_size(cpu_buffer) - in_sb, false);
}

/*
 * rb_fill_slot(): after the offset cmpxchg that reserved [@begin, @end) at
 * time @ts, write the time record @kind asks for (or the sub-buffer's time
 * stamp) and the header of the record of @len bytes, and note the
 * reservation at nesting @depth for the commit.
 */
static __always_inline struct ring_buffer_event *
rb_fill_slot(struct ring_buffer_per_cpu *cpu_buffer, unsigned int depth,
	     unsigned long begin, unsigned long end, u64 ts,
	     enum rb_ts_kind kind, u64 delta, unsigned long len)
{
	struct rb_wctx *w = &cpu_buffer->wctx[depth];
	struct ring_buffer_event *event;
	struct buffer_data_page *bpage;
	void *p;

	bpage = rb_get_page(cpu_buffer, rb_idx(cpu_buffer, begin));
	p = (void *)bpage + (begin & rb_sb_mask(cpu_buffer));
	switch (kind) {
	case RB_TS_FIRST:
		bpage->time_stamp = ts;
		p += BUF_PAGE_HDR_SIZE;
		break;
	case RB_TS_EXTEND:
		rb_set_time_record(p, RINGBUF_TYPE_TIME_EXTEND, delta);
		p += RB_LEN_TIME_STAMP;
		break;
	case RB_TS_ABS:
		rb_set_time_record(p, RINGBUF_TYPE_TIME_STAMP, ts);
		p += RB_LEN_TIME_STAMP;
		break;
	default:
		break;
	}
	event = p;
	rb_set_data_header(event, len, kind == RB_TS_DELTA ? delta : 0);

	w->begin = begin;
	w->end = end;
	w->ts = ts;
	w->event = event;
	return event;
}

/*
 * rb_clock_went_back(): the clock read @ts, earlier than @hint, the time
 * of the record before this one in its sub-buffer or a time no later
 * than it (rb_update_lts()).  A change to a clock that is behind the old
 * one (tracing_set_clock() resets the buffer only after
 * ring_buffer_set_clock(), and writers run in between), or a sched_clock
 * that stepped back.  The record takes @hint: with the time stamp word
 * matching the offset that is the time of the record before, and a plain
 * delta of 0; otherwise a TIME_STAMP of @hint.  So readers never see time
 * go back within a sub-buffer, and the records that follow keep @hint
 * until the clock passes it or the next sub-buffer begins, whose header
 * has the clock's own time.  The page-based buffer also gives such a
 * record the time of the one before (a delta of 0, in rb_add_timestamp()),
 * and its next page the clock's time.
 */
static noinline u64 rb_clock_went_back(struct ring_buffer_per_cpu *cpu_buffer,
				       u64 hint, u64 ts)
{
	/* Deferred: writers run under the runqueue lock (sched_switch) */
	printk_deferred_once("ring buffer: CPU %d clock went back %llu -> %llu, records keep the earlier time\n",
			     cpu_buffer->cpu, hint, ts);
	return hint;
}

/*
 * What a writer reads before it decides where its record goes: the
 * offset, then the time stamp word and its hint, then the clock.  The
 * clock comes last, so that a writer whose offset cmpxchg succeeds has a
 * time no earlier than any record before its own.
 */
struct rb_wsnap {
	unsigned long	wpos;
	unsigned long	lts;
	u64		hint;
	u64		ts;
};

static __always_inline void
rb_read_wsnap(struct trace_buffer *buffer, struct ring_buffer_per_cpu *cpu_buffer,
	      struct rb_wsnap *snap)
{
	snap->wpos = local_read(&cpu_buffer->offset);
	snap->lts = READ_ONCE(cpu_buffer->lts);
	snap->hint = READ_ONCE(cpu_buffer->lts_hint);
	snap->ts = rb_time_stamp(buffer);
}

/*
 * rb_reserve_slow(): every reservation the fast path in rb_reserve() does
 * not make, for a record of @len bytes at nesting @depth (claimed there).
 * Decide the slot from @first, what the fast path read, or when that is
 * NULL (its cmpxchg failed) from the offset, the last time stamp and the
 * clock read again: the first record of a sub-buffer (after the checks
 * of rb_new_subbuf()), a record behind a time record, a switch to the
 * next sub-buffer; cmpxchg the offset, and start over, reading all of
 * them again, when a nested writer moved it.  The clock is read inside
 * the loop, so times are in buffer order.
 */
static noinline struct ring_buffer_event *
rb_reserve_slow(struct trace_buffer *buffer, struct ring_buffer_per_cpu *cpu_buffer,
		unsigned long len, unsigned int depth, const struct rb_wsnap *first)
{
	unsigned long wpos, begin, end, in_sb;
	struct rb_wsnap snap;
	enum rb_ts_kind kind;
	u64 ts, delta = 0;

	for (;; first = NULL) {
		if (first)
			snap = *first;
		else
			rb_read_wsnap(buffer, cpu_buffer, &snap);
		wpos = snap.wpos;
		ts = snap.ts;
		in_sb = wpos & rb_sb_mask(cpu_buffer);
		begin = wpos;
		if (unlikely(!in_sb)) {
			begin = rb_sbs_at(cpu_buffer, wpos);
			kind = RB_TS_FIRST;
			end = begin + BUF_PAGE_HDR_SIZE + len;
		} else {
			/* Not the first record: never earlier than the one before */
			if (unlikely(ts < snap.hint))
				ts = rb_clock_went_back(cpu_buffer, snap.hint, ts);
			if (unlikely(buffer->time_stamp_abs))
				kind = RB_TS_ABS;
			else
				kind = rb_ts_kind(wpos, snap.lts, snap.hint, ts,
						  &delta);
			end = wpos + len + (kind == RB_TS_DELTA ? 0 : RB_LEN_TIME_STAMP);
			if (end - (wpos - in_sb) > rb_sb_size(cpu_buffer)) {
				/* Switch: pad the rest, start the next one */
				begin = rb_next_sbs(cpu_buffer, wpos);
				kind = RB_TS_FIRST;
				ts = snap.ts;
				end = begin + BUF_PAGE_HDR_SIZE + len;
			}
		}
		if (!(begin & rb_sb_mask(cpu_buffer))) {
			int ret = rb_new_subbuf(cpu_buffer, wpos, begin);

			if (ret == -EAGAIN)
				continue;
			if (ret)
				goto fail;
		}
		if (likely(local_cmpxchg(&cpu_buffer->offset, wpos, end) == wpos))
			break;
	}

	rb_update_lts(cpu_buffer, ts, end);
	if (in_sb && begin != wpos)
		rb_switch_old(cpu_buffer, wpos);
	return rb_fill_slot(cpu_buffer, depth, begin, end, ts, kind, delta, len);

 fail:
	/*
	 * The record needed the next sub-buffer and cannot have it.  Close
	 * the current one (its rest counts as padding, as on a switch), so
	 * that no smaller record slips in after the lost one: the losses
	 * stay together and are reported before the next sub-buffer.
	 */
	if (in_sb && begin != wpos && local_cmpxchg(&cpu_buffer->offset, wpos, begin) == wpos)
		rb_switch_old(cpu_buffer, wpos);
	cpu_buffer->depth = depth;
	return NULL;
}

/*
 * rb_reserve(): the fast path, for a record with a time delta in its
 * header that fits in the sub-buffer the offset is in: read the offset,
 * the last time stamp and the clock, one local_cmpxchg, write the header.
 * The first record of a sub-buffer, a record that needs a time record in
 * front and one that does not fit go to rb_reserve_slow() with what was
 * read; a cmpxchg that a nested writer made fail goes there without, to
 * read it all again.
 */
static __always_inline struct ring_buffer_event *
rb_reserve(struct trace_buffer *buffer, struct ring_buffer_per_cpu *cpu_buffer,
	   unsigned long length)
{
	unsigned long len = rb_event_len(length);
	unsigned int depth = cpu_buffer->depth;
	struct rb_wsnap snap;
	unsigned long in_sb;
	u64 delta;

	if (unlikely(depth >= RB_MAX_DEPTH)) {
		WARN_ON_ONCE(1);
		return NULL;
	}
	/* Claim the context slot before a nested writer can */
	cpu_buffer->depth = depth + 1;
	barrier();

	rb_read_wsnap(buffer, cpu_buffer, &snap);
	in_sb = snap.wpos & rb_sb_mask(cpu_buffer);
	if (unlikely(!in_sb || in_sb + len > rb_sb_size(cpu_buffer) ||
		     buffer->time_stamp_abs ||
		     rb_ts_kind(snap.wpos, snap.lts, snap.hint, snap.ts,
				&delta) != RB_TS_DELTA))
		return rb_reserve_slow(buffer, cpu_buffer, len, depth, &snap);
	if (unlikely(local_cmpxchg(&cpu_buffer->offset, snap.wpos,
				   snap.wpos + len) != snap.wpos))
		return rb_reserve_slow(buffer, cpu_buffer, len, depth, NULL);

	rb_update_lts(cpu_buffer, snap.ts, snap.wpos + len);
	return rb_fill_slot(cpu_buffer, depth, snap.wpos, snap.wpos + len,
			    snap.ts, RB_TS_DELTA, delta, len);
}

/**
 * ring_buffer_lock_reserve - reserve room for a record on this CPU
 * @buffer: the buffer to write to
 * @length: the length of the payload
 *
 * Reserves @length bytes of payload in the current CPU's buffer, with a
 * time stamp of the buffer's clock taken at the reservation.  The caller
 * fills ring_buffer_event_data() of the record returned, then calls
 * ring_buffer_unlock_commit() or ring_buffer_discard_commit().  Until then
 * preemption stays disabled; interrupts and NMIs may nest writes of their
 * own, up to the nesting depth of trace_recursive_lock().
 *
 * Return: the reserved record, or NULL when recording is off for the
 * buffer or this CPU, the CPU has no buffer, @length is more than
 * ring_buffer_max_event_size(), the write would recurse, or there is no
 * room: in discard mode when the buffer is full (counted in
 * ring_buffer_dropped_events_cpu()), in either mode when the sub-buffer
 * to be reused still has a reservation open (counted in
 * ring_buffer_commit_overrun_cpu()).
 */
struct ring_buffer_event *
ring_buffer_lock_reserve(struct trace_buffer *buffer, unsigned long length)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	int cpu;

	/* If we are tracing schedule, we don't want to recurse */
	preempt_disable_notrace();

	if (unlikely(atomic_read(&buffer->record_disabled)))
		goto out;

	cpu = raw_smp_processor_id();

	if (unlikely(!cpumask_test_cpu(cpu, buffer->cpumask)))
		goto out;

	cpu_buffer = buffer->buffers[cpu];

	if (unlikely(atomic_read(&cpu_buffer->record_disabled)))
		goto out;

	if (unlikely(length > rb_max_data_size(cpu_buffer)))
		goto out;

	if (unlikely(trace_recursive_lock(cpu_buffer)))
		goto out;

	/*
	 * ring_buffer_swap_cpu() runs on this CPU (an IPI, or the latency
	 * tracers' update_max_tr_single()) and refuses to swap while
	 * current_context is set.  One that came in after the look-up of
	 * buffer->buffers[cpu] above and before trace_recursive_lock() moved
	 * @cpu_buffer to the other buffer: ring_buffer_unlock_commit() would
	 * then find a cpu_buffer with no reservation.  Same CPU, so a
	 * compiler barrier orders the flag before the check; fail the write
	 * as the page-based buffer does (rb_reserve_next_event()).
	 */
	barrier();
	if (unlikely(READ_ONCE(cpu_buffer->buffer) != buffer))
		goto out_unlock;

	event = rb_reserve(buffer, cpu_buffer, length);
	if (!event)
		goto out_unlock;

	return event;

 out_unlock:
	trace_recursive_unlock(cpu_buffer);
 out:
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_GPL(ring_buffer_lock_reserve);

static __always_inline void
rb_end_commit(struct ring_buffer_per_cpu *cpu_buffer, bool record)
{
	struct rb_wctx *w = &cpu_buffer->wctx[cpu_buffer->depth - 1];

	/*
	 * Counted before the record can be read, so that entries (this
	 * minus overrun and read) never goes below zero.
	 */
	if (record)
		local_inc(&cpu_buffer->entries);
	rb_commit(cpu_buffer, w->begin, w->end - w->begin, record);
	barrier();
	cpu_buffer->depth--;
}

/**
 * ring_buffer_unlock_commit - commit a reserved record
 * @buffer: the buffer the record was reserved in
 * @event: the record returned by ring_buffer_lock_reserve()
 *
 * Makes the record readable once every reservation before it in its
 * sub-buffer is committed too, wakes the readers waiting for it, and
 * enables preemption again.  Must run on the CPU of the reservation,
 * innermost reservation first.
 *
 * Return: 0.
 */
int ring_buffer_unlock_commit(struct trace_buffer *buffer,
			      struct ring_buffer_event *event)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	int cpu = raw_smp_processor_id();

	cpu_buffer = buffer->buffers[cpu];

	rb_end_commit(cpu_buffer, true);
	rb_wakeups(buffer, cpu_buffer);
	trace_recursive_unlock(cpu_buffer);
	preempt_enable_notrace();

	return 0;
}
EXPORT_SYMBOL_GPL(ring_buffer_unlock_commit);

/*
 * A discarded record becomes padding that keeps its time delta, so the
 * times of the records after it stay exact.  A delta of 0 would make the
 * padding read as "rest of the sub-buffer unused": then the record
 * becomes padding with delta 1 followed by a TIME_STAMP of its own time
 * (lengths are 8 or at least 16, see rb_event_len()).
 */
static void rb_discard(struct rb_wctx *w, struct ring_buffer_event *event)
{
	unsigned int len = rb_event_data_length(event);
	struct ring_buffer_event *ts_event;

	if (event->time_delta) {
		event->array[0] = len - RB_EVNT_HDR_SIZE;
		event->type_len = RINGBUF_TYPE_PADDING;
		return;
	}
	ts_event = (void *)event + len - RB_LEN_TIME_STAMP;
	if (len > RB_LEN_TIME_STAMP) {
		event->array[0] = len - RB_LEN_TIME_STAMP - RB_EVNT_HDR_SIZE;
		event->time_delta = 1;
		event->type_len = RINGBUF_TYPE_PADDING;
	}
	rb_set_time_record(ts_event, RINGBUF_TYPE_TIME_STAMP, w->ts);
}

/*
 * rb_try_to_reclaim(): give the space of a discarded record back when it
 * is the last one reserved, as the page-based buffer does: move the
 * offset back from its end to its begin.  Nothing is committed for it
 * (readers never get past an uncommitted reservation), so no reader has
 * seen it.  The time word goes back first: to the record before when the
 * discarded one had a plain delta to it, otherwise to a pair that the
 * offset cannot match, so the next record gets a TIME_STAMP (as in the
 * page-based buffer after rb_try_to_discard()).  A writer that comes in
 * after the check reserves after this record: then the cmpxchg fails,
 * the word it published stays or gives a TIME_STAMP, and the record
 * becomes padding.  Same CPU only: program order.
 */
static bool rb_try_to_reclaim(struct ring_buffer_per_cpu *cpu_buffer,
			      struct rb_wctx *w, struct ring_buffer_event *event)
{
	unsigned long begin = w->begin, end = w->end;
	unsigned long word;

	if (local_read(&cpu_buffer->offset) != end)
		return false;
	if ((begin & rb_sb_mask(cpu_buffer)) && rb_event_data_length(event) == end - begin) {
		/* A plain delta to the record before, which ends at begin */
		u64 prev = w->ts - event->time_delta;

		WRITE_ONCE(cpu_buffer->lts_hint, prev);
		word = (unsigned long)(prev << 32) | (u32)begin;
	} else {
		/* First of its sub-buffer, or a time record in front */
		word = (u32)(begin - 1);
	}
	WRITE_ONCE(cpu_buffer->lts, word);
	return local_cmpxchg(&cpu_buffer->offset, end, begin) == end;
}

/**
 * ring_buffer_discard_commit - give up a reserved record
 * @buffer: the buffer the record was reserved in
 * @event: the record returned by ring_buffer_lock_reserve()
 *
 * Used by event filters: the record is not counted as an entry.  When it
 * is the last one reserved on the CPU its space is given back; otherwise
 * it becomes padding that keeps its time delta, so the records after it
 * keep their times.  Ends the reservation as ring_buffer_unlock_commit()
 * does, without a wake-up.
 */
void ring_buffer_discard_commit(struct trace_buffer *buffer,
				struct ring_buffer_event *event)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	int cpu = smp_processor_id();
	struct rb_wctx *w;

	cpu_buffer = buffer->buffers[cpu];
	if (WARN_ON_ONCE(!cpu_buffer->depth))
		goto out;
	w = &cpu_buffer->wctx[cpu_buffer->depth - 1];
	if (WARN_ON_ONCE(w->event != event)) {
		rb_end_commit(cpu_buffer, false);
		goto out;
	}
	if (rb_try_to_reclaim(cpu_buffer, w, event)) {
		barrier();
		cpu_buffer->depth--;
		goto out;
	}
	rb_discard(w, event);
	rb_end_commit(cpu_buffer, false);
 out:
	trace_recursive_unlock(cpu_buffer);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(ring_buffer_discard_commit);

/**
 * ring_buffer_write - write a record in one call
 * @buffer: the buffer to write to
 * @length: the length of @data
 * @data: the payload
 *
 * ring_buffer_lock_reserve(), a copy of @data, ring_buffer_unlock_commit().
 *
 * Return: 0 on success, -EBUSY when the reservation failed.
 */
int ring_buffer_write(struct trace_buffer *buffer,
		      unsigned long length, void *data)
{
	struct ring_buffer_event *event;

	event = ring_buffer_lock_reserve(buffer, length);
	if (!event)
		return -EBUSY;
	memcpy(ring_buffer_event_data(event), data, length);
	return ring_buffer_unlock_commit(buffer, event);
}
EXPORT_SYMBOL_GPL(ring_buffer_write);

/**
 * ring_buffer_event_time_stamp - the time of a record being written
 * @buffer: the buffer the record was reserved in
 * @event: a record reserved on this CPU and not committed yet
 *
 * For the histogram triggers, which read the time of the record they
 * are about to commit.  A TIME_STAMP record gives its own time.  If
 * @event is none of this CPU's open reservations (a trigger's copy of
 * the event), the time of the innermost open reservation, as the
 * page-based buffer gives.
 *
 * Return: the time stamp in the units of the buffer's clock.
 */
u64 ring_buffer_event_time_stamp(struct trace_buffer *buffer,
				 struct ring_buffer_event *event)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned int depth;

	if (event->type_len == RINGBUF_TYPE_TIME_STAMP)
		return rb_extend_value(event);

	cpu_buffer = buffer->buffers[smp_processor_id()];
	for (depth = cpu_buffer->depth; depth; depth--) {
		if (cpu_buffer->wctx[depth - 1].event == event)
			return cpu_buffer->wctx[depth - 1].ts;
	}
	/* As the page-based buffer: the innermost reservation's time */
	depth = cpu_buffer->depth;
	if (!WARN_ON_ONCE(!depth))
		return cpu_buffer->wctx[depth - 1].ts;
	return rb_time_stamp(buffer);
}
EXPORT_SYMBOL_GPL(ring_buffer_event_time_stamp);	/* ring_buffer_stress */

/**
 * ring_buffer_time_stamp - read the buffer's clock
 * @buffer: the buffer
 *
 * Return: the time the buffer's clock reads now, as a writer would
 * stamp a record.
 */
u64 ring_buffer_time_stamp(struct trace_buffer *buffer)
{
	u64 time;

	preempt_disable_notrace();
	time = rb_time_stamp(buffer);
	preempt_enable_notrace();

	return time;
}
EXPORT_SYMBOL_GPL(ring_buffer_time_stamp);

/**
 * ring_buffer_normalize_time_stamp - a hook for clock normalization
 * @buffer: the buffer
 * @cpu: the CPU the time stamp was read on
 * @ts: the time stamp
 *
 * Does nothing, as in the page-based buffer: the times in the buffer are
 * those of the buffer's clock.
 */
void ring_buffer_normalize_time_stamp(struct trace_buffer *buffer,
				      int cpu, u64 *ts)
{
	/* Just stupid testing the normalize function and deltas */
}
EXPORT_SYMBOL_GPL(ring_buffer_normalize_time_stamp);

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/*
 * How long a reader in NMI waits for a reader lock held on another CPU:
 * longer than any holder keeps it while it runs (a resize moves the
 * pointers of one ring), far shorter than a dump takes.
 */
#define RB_NMI_LOCK_WAIT_US	100000

/*
 * A reader in NMI found the reader lock held.  If the code it interrupted
 * holds it (r_owner is this CPU), the lock cannot come free while the NMI
 * runs.  If another CPU holds it, it comes free soon, unless that CPU is
 * stopped (a panic stops the other CPUs before it dumps the buffer) or
 * stuck: wait for it that long.  A reader beside a holder that goes on
 * would race with it on the reader's page and positions, which nothing
 * but the lock keeps apart.  Returns whether the lock was taken.
 *
 * Once a wait ran out, later readers in NMI do not wait again until the
 * lock is released (r_nmi_gave_up): ftrace_dump() takes the lock for
 * every record, and each would wait the whole time for a stopped holder.
 * A release between the last try and that mark leaves it set for the
 * next holder, whose readers in NMI then do not wait either: the race of
 * a reader that found the lock held before this wait existed.
 *
 * A holder that took the lock but has not stored r_owner yet leaves
 * RB_NO_OWNER or another CPU there, never this one: this CPU's last store
 * to it was RB_NO_OWNER, before it last released the lock.
 */
static noinline bool rb_reader_lock_nmi(struct ring_buffer_per_cpu *cpu_buffer)
{
	int cpu = raw_smp_processor_id();
	unsigned int us;

	for (us = 0; us < RB_NMI_LOCK_WAIT_US; us++) {
		if (raw_spin_trylock(&cpu_buffer->reader_lock)) {
			WRITE_ONCE(cpu_buffer->r_owner, cpu);
			return true;
		}
		if (READ_ONCE(cpu_buffer->r_owner) == cpu ||
		    READ_ONCE(cpu_buffer->r_nmi_gave_up))
			return false;
		udelay(1);
	}
	WRITE_ONCE(cpu_buffer->r_nmi_gave_up, true);
	return false;
}

/*
 * The reader lock, with interrupts off.  An NMI (a hard-lockup panic or
 * ftrace_dump() from one) must not spin on a lock that the code it
 * interrupted holds; it waits a while for one held on another CPU
 * (rb_reader_lock_nmi()).  Failing that, it reads without the lock, as
 * the page-based buffer does.  A holder under it on this CPU, or stopped
 * on another, may be in the middle of moving the reader's page
 * (rb_reader_moving()), so the CPU buffer stops recording for good:
 * reading from NMI is a one-shot deal.  Returns whether the lock was
 * taken, for rb_reader_unlock().
 */
static __always_inline bool rb_reader_lock(struct ring_buffer_per_cpu *cpu_buffer,
					   unsigned long *flags)
	__acquires(&cpu_buffer->reader_lock)
{
	if (likely(!in_nmi())) {
		rb_reader_lock_irqsave(cpu_buffer, flags);
		return true;
	}
	local_irq_save(*flags);
	if (rb_reader_lock_nmi(cpu_buffer))
		return true;
	atomic_inc(&cpu_buffer->record_disabled);
	/* For sparse: rb_reader_unlock() pairs with this either way */
	__acquire(&cpu_buffer->reader_lock);
	return false;
}

static __always_inline void rb_reader_unlock(struct ring_buffer_per_cpu *cpu_buffer,
					     unsigned long flags, bool locked)
	__releases(&cpu_buffer->reader_lock)
{
	if (likely(locked)) {
		rb_reader_released(cpu_buffer);
		raw_spin_unlock(&cpu_buffer->reader_lock);
	} else {
		__release(&cpu_buffer->reader_lock);
	}
	local_irq_restore(flags);
}

/*
 * rb_walk(): the one walk over the records of a page.  From offset @off of
 * @bpage, where the time is @ts, towards @to (offsets from the page
 * start): returns the time before the record where the walk stops, and
 * stores that offset in *@at: @to, or the start of a record that would
 * run past it.  With @nrec, counts there the data records from offset
 * @from on.  Bounded by the lengths found, so a torn copy cannot make it
 * run away; a claim's cmpxchg decides whether the copy counts.
 */
static u64 rb_walk(struct buffer_data_page *bpage, unsigned long off, u64 ts,
		   unsigned long to, unsigned long *at,
		   unsigned long from, unsigned long *nrec)
{
	unsigned long n = 0;

	while (off < to) {
		struct ring_buffer_event *event = (void *)bpage + off;
		unsigned int len = rb_record_length(event);

		if (!len || off + len > to)
			break;
		/* a data record's own delta belongs to it, not before it */
		ts = rb_apply_ts(event, ts);
		if (off >= from && rb_is_data(event))
			n++;
		off += len;
	}
	*at = off;
	if (nrec)
		*nrec = n;
	return ts;
}

/* Time before the record at @to, from the start of the data. */
static u64 rb_ts_at(struct buffer_data_page *bpage, unsigned long to,
		    unsigned long *at)
{
	return rb_walk(bpage, BUF_PAGE_HDR_SIZE, bpage->time_stamp, to, at,
		       to, NULL);
}

#ifdef CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS
/*
 * A claim of the records from @from on in @bpage: the consumed word said
 * @k records before @from were consumed, and a writer that pushes the
 * reader counts the rest of the sub-buffer as overrun from that number;
 * @total: the records the writers counted in it (0: not known).
 */
static void rb_check_claim(struct ring_buffer_per_cpu *cpu_buffer,
			   struct buffer_data_page *bpage, unsigned long from,
			   unsigned long k, unsigned long total)
{
	unsigned long end = (local_read(&bpage->commit) & RB_COMMIT_MASK) +
			    BUF_PAGE_HDR_SIZE;
	unsigned long all, after, at;

	rb_walk(bpage, BUF_PAGE_HDR_SIZE, bpage->time_stamp, end, &at, 0, &all);
	rb_walk(bpage, BUF_PAGE_HDR_SIZE, bpage->time_stamp, end, &at, from,
		&after);
	if (all - after != k || (total && all != total)) {
		WARN_ONCE(1, "ring buffer: CPU %d claim at %lu: %lu records before it, consumed word says %lu; %lu in all, commit count %lu\n",
			  cpu_buffer->cpu, from, all - after, k, all, total);
		atomic_inc(&cpu_buffer->record_disabled);
	}
}
#else
static inline void rb_check_claim(struct ring_buffer_per_cpu *cpu_buffer,
				  struct buffer_data_page *bpage,
				  unsigned long from, unsigned long k,
				  unsigned long total) { }
#endif

/*
 * The reader's page and its positions change in steps: in rb_get_subbuf()
 * its spare page goes into the ring slot before the claim of the consumed
 * word, and the page and positions follow; in ring_buffer_read_page() the
 * caller's page takes the place of the reader's before the positions say
 * it holds nothing.  A reader nested in those steps, an NMI that found the
 * reader lock held under it (ftrace_dump()), would read between them: the
 * old records of the spare page that the slot names (and the reader under
 * it would then lose the sub-buffer without a count), or those of the
 * caller's page.  A resize, a change of the sub-buffer size and a reset
 * move the whole ring in steps under the reader lock: the reader's page,
 * the pages, the positions.  An NMI reader between those steps would read
 * a fresh page as the reader's, or the old positions in the new ring.
 * @moving: the steps begin or end; while they are under way, a reader on
 * this CPU finds nothing to read (rb_reader_between()).
 *
 * A reader in NMI on this CPU sees these stores in program order: a
 * compiler barrier orders the start before the steps (M1).  One on
 * another CPU reads without the lock only when the holder kept it for
 * RB_NMI_LOCK_WAIT_US (rb_reader_lock_nmi()), which is when that CPU was
 * stopped; the end is a release (M3), so a reader that sees it sees the
 * steps before it.  FIXME: the stop, not a barrier here, orders a stopped
 * holder's start before its steps for that reader, and a holder that is
 * merely slow is not kept out at all; the read is one-shot anyway.
 */
static __always_inline void rb_reader_moving(struct ring_buffer_per_cpu *cpu_buffer,
					     bool moving)
{
	if (moving) {
		WRITE_ONCE(cpu_buffer->r_moving, true);
		barrier();	/* M1, matches M2: the steps after the start */
	} else {
		/* M3, matches M2: the steps before the end */
		smp_store_release(&cpu_buffer->r_moving, false);
	}
}

/* Whether a reader under this one, or one stopped, is between its steps */
static __always_inline bool rb_reader_between(struct ring_buffer_per_cpu *cpu_buffer)
{
	/* M2, matches M1 on this CPU and M3 */
	return smp_load_acquire(&cpu_buffer->r_moving);
}

/*
 * A move of the whole ring of @cpu_buffer (a resize, a change of the
 * sub-buffer size, a reset) begins: the reader lock with interrupts off,
 * and the mark that keeps a reader in NMI on this CPU out of it until
 * rb_ring_move_end().
 */
static void rb_ring_move_begin(struct ring_buffer_per_cpu *cpu_buffer,
			       unsigned long *flags)
	__acquires(&cpu_buffer->reader_lock)
{
	rb_reader_lock_irqsave(cpu_buffer, flags);
	rb_reader_moving(cpu_buffer, true);
}

static void rb_ring_move_end(struct ring_buffer_per_cpu *cpu_buffer,
			     unsigned long flags)
	__releases(&cpu_buffer->reader_lock)
{
	rb_reader_moving(cpu_buffer, false);
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
}

/*
 * The reader's page @page holds claimed records of the sub-buffer at @sbs
 * from @head to @end; @ts is the time before the record at @head.  @from:
 * the ring position the claim took the consumed word from; @next: the one
 * it left it at, where the ring's records go on after these.  A claim
 * from where the one before left off goes on reading without a gap: the
 * reader has then consumed everything from r_from on, and an iterator
 * there that it passed lost nothing (rb_iter_consumed()).  r_from stays
 * within a quarter of the range that rb_pos_before() compares in (2^43
 * bytes with 64 KiB pages, hours of a busy CPU), so that it is never
 * taken for a position after the iterator's.
 */
static void rb_reader_set(struct ring_buffer_per_cpu *cpu_buffer,
			  unsigned long page, unsigned long sbs,
			  unsigned long head, u64 ts, unsigned long end,
			  unsigned long from, unsigned long next)
{
	if (from != cpu_buffer->r_next)
		cpu_buffer->r_from = from;
	else if (from - cpu_buffer->r_from > RB_POS_QUARTER)
		cpu_buffer->r_from = from - RB_POS_QUARTER;
	cpu_buffer->rpage = page;
	cpu_buffer->r_sbs = sbs;
	cpu_buffer->r_head = head;
	cpu_buffer->r_ts = ts;
	cpu_buffer->r_end = end;
	cpu_buffer->r_next = next;
}

/*
 * The reader's page no longer holds the partial copy rb_read_partial()
 * left in it: another page took its place, or positions started over.
 */
static void rb_reader_copy_gone(struct ring_buffer_per_cpu *cpu_buffer)
{
	cpu_buffer->r_copied = 0;
}

/*
 * Losses are reported with the first records claimed after them: records
 * overwritten before the reader got to them (overrun), and at the start
 * of a sub-buffer, what writers failed to write before it (@drops: the
 * drop mark of the claimed generation, see rb_claim_drop_mark()).
 */
static void rb_note_lost(struct ring_buffer_per_cpu *cpu_buffer,
			 unsigned long drops, bool from_start)
{
	unsigned long over = local_read(&cpu_buffer->overrun);

	cpu_buffer->lost_pending += over - cpu_buffer->seen_overrun;
	cpu_buffer->seen_overrun = over;
	if (!from_start)
		return;
	if ((long)(drops - cpu_buffer->seen_drops) > 0) {
		cpu_buffer->lost_pending += drops - cpu_buffer->seen_drops;
		cpu_buffer->seen_drops = drops;
	}
}

/*
 * The drop mark of the generation at @sbs, for rb_note_lost().  Read
 * before the claim's cmpxchg of the consumed word, which orders it before
 * that cmpxchg: once the consumed word is past @sbs, a writer may begin
 * the next generation of the sub-buffer and store its own mark in
 * rb_new_subbuf(), after its read of the consumed word in
 * rb_push_reader() (a control dependency).  That mark counts drops after
 * the records claimed here: read after the claim, it announced them a
 * sub-buffer or more before the gap.  Read after what shows that the
 * writers began this generation (the id cmpxchg, or the commit count and
 * barrier C in rb_partial_len()), it is this generation's.
 */
static unsigned long rb_claim_drop_mark(struct ring_buffer_per_cpu *cpu_buffer,
					unsigned long sbs)
{
	return READ_ONCE(cpu_buffer->meta[rb_idx(cpu_buffer, sbs)].drop_mark);
}

enum rb_claim {
	RB_CLAIM_NONE,		/* nothing to read now */
	RB_CLAIM_GOT,		/* records claimed into the reader's page */
	RB_CLAIM_AGAIN,		/* something moved: look again */
};

/*
 * rb_get_subbuf(): take delivered sub-buffer @sbs out of the ring by
 * swapping it with the reader's page, then claim it by cmpxchg of the
 * consumed word.  If a writer pushed the reader meanwhile, the writer
 * counted those records as overrun: drop the page.
 */
static enum rb_claim rb_get_subbuf(struct ring_buffer_per_cpu *cpu_buffer,
				   unsigned long cword, unsigned long pos,
				   unsigned long sbs, unsigned long id,
				   unsigned long *drops)
{
	unsigned long idx = rb_idx(cpu_buffer, sbs);
	unsigned long gen = rb_gen(cpu_buffer, sbs) & RB_ID_TAG_MASK;
	unsigned long from = pos & rb_sb_mask(cpu_buffer);
	struct buffer_data_page *bpage;
	unsigned long page, end, nrec, head;
	u64 ts;

	rb_reader_moving(cpu_buffer, true);
	/* Pairs with the writer's cmpxchg in rb_get_page() */
	if (cmpxchg(&cpu_buffer->hot[idx].id, id,
		    RB_ID(cpu_buffer->rpage, 1, gen)) != id) {
		rb_reader_moving(cpu_buffer, false);
		return RB_CLAIM_AGAIN;
	}
	rb_test_hook(cpu_buffer, RB_TEST_SWAPPED);

	/*
	 * The page is out of the ring.  The cmpxchg above orders the reads
	 * of its header after the id, pairing with the smp_wmb() in
	 * rb_deliver().
	 */
	page = id & RB_ID_PAGE_MASK;
	bpage = cpu_buffer->pages[page];
	rb_reader_copy_gone(cpu_buffer);
	end = (local_read(&bpage->commit) & RB_COMMIT_MASK) + BUF_PAGE_HDR_SIZE;
	nrec = READ_ONCE(cpu_buffer->meta[idx].nrec);
	*drops = rb_claim_drop_mark(cpu_buffer, sbs);

	/* rb_consume(): pairs with the writer's cmpxchg in rb_push_reader() */
	if (cmpxchg(&cpu_buffer->consumed, cword,
		    rb_next_sbs(cpu_buffer, sbs) << RB_K_BITS) != cword) {
		cpu_buffer->rpage = page;
		cpu_buffer->r_head = 0;
		cpu_buffer->r_end = 0;
		rb_reader_moving(cpu_buffer, false);
		return RB_CLAIM_AGAIN;
	}
	rb_check_claim(cpu_buffer, bpage, from, cword & RB_K_MASK, nrec);
	ts = rb_ts_at(bpage, max_t(unsigned long, from, BUF_PAGE_HDR_SIZE), &head);
	rb_reader_set(cpu_buffer, page, sbs, head, ts, end, pos,
		      rb_next_sbs(cpu_buffer, sbs));
	cpu_buffer->r_whole = true;
	rb_reader_moving(cpu_buffer, false);
	return RB_CLAIM_GOT;
}

/*
 * rb_frozen_end(): where the outermost reservation still open on the CPU
 * of @cpu_buffer starts, when its writers cannot be waited for: the reader
 * runs nested in one of them on that CPU (ftrace_dump() from an oops
 * inside an event, or from an NMI that interrupted a writer), or an oops
 * or panic is in progress (the other CPUs may be stopped for good).
 * Reservations are stacked per CPU: every byte before the outermost open
 * one is committed, so a reader may go up to it, as the page-based buffer
 * reads up to its commit page.  On the reader's own CPU the writers under
 * it are frozen and this is exact; on another CPU during an oops it is
 * exact once that CPU is stopped.  An entry whose writer has claimed its
 * depth but not yet stored its begin still holds an older position: the
 * answer is then too early, never too late.  Returns false if no writer
 * of that CPU is (known to be) stuck inside a reservation.
 */
static bool rb_frozen_end(struct ring_buffer_per_cpu *cpu_buffer,
			  unsigned long *end)
{
	if (!READ_ONCE(cpu_buffer->depth))
		return false;
	if (cpu_buffer->cpu != raw_smp_processor_id() && !oops_in_progress)
		return false;
	*end = READ_ONCE(cpu_buffer->wctx[0].begin);
	/*
	 * FIXME: on another CPU nothing orders the writer's commits before
	 * its store of wctx[0].begin; stopping that CPU (panic) does.
	 */
	smp_rmb();
	return true;
}

/*
 * rb_partial_len(): how much of the sub-buffer at @sbs, which the writers
 * have not delivered, can be read now (bytes from its start, 0 for
 * none).  Normally all of it or nothing: when its commit count equals the
 * bytes reserved in it, every record up to the offset is committed.  That
 * includes a sub-buffer that records filled exactly, which the next
 * writer delivers (rb_deliver_prev()): until one comes, it is read as the
 * page-based buffer reads a full commit page.  The offset is the raw one,
 * which is at the unused index after the last sub-buffer in that case
 * (rb_sbs_at()).  The count is read before the offset (A, matches B in
 * rb_commit()): a count that includes a commit comes with an offset at
 * least past that record.
 */
static unsigned long rb_partial_len(struct ring_buffer_per_cpu *cpu_buffer,
				    unsigned long sbs)
{
	struct rb_sb_hot *h = &cpu_buffer->hot[rb_idx(cpu_buffer, sbs)];
	unsigned long gen = rb_gen(cpu_buffer, sbs);
	unsigned long cc, len, end;

	cc = local_read(&h->cc);
	smp_rmb();	/* A, matches B */
	len = local_read(&cpu_buffer->offset) - sbs;
	if (len <= rb_sb_size(cpu_buffer) &&
	    rb_cc_eq(cc - rb_gen_count(cpu_buffer, gen), len)) {
		/* Count before data: C, matches B */
		smp_rmb();
		return len;
	}
	if (rb_frozen_end(cpu_buffer, &end) && end - sbs < rb_sb_size(cpu_buffer))
		return end - sbs;
	return 0;
}

/*
 * rb_read_partial(): copy the readable part (rb_partial_len()) of the
 * sub-buffer the writers are in into the reader's page.  The copy is the
 * reader's only if its cmpxchg of the consumed word succeeds.
 */
static enum rb_claim rb_read_partial(struct ring_buffer_per_cpu *cpu_buffer,
				     unsigned long cword, unsigned long pos,
				     unsigned long sbs, unsigned long *drops)
{
	struct rb_sb_hot *h = &cpu_buffer->hot[rb_idx(cpu_buffer, sbs)];
	unsigned long from = pos & rb_sb_mask(cpu_buffer);
	struct buffer_data_page *dst, *src;
	unsigned long want, next, n, len, head, at;
	u64 head_ts, ts;
	bool more;

	len = rb_partial_len(cpu_buffer, sbs);
	if (from >= len)
		return RB_CLAIM_NONE;	/* being delivered, or commit pending */

	src = rb_id_page(cpu_buffer, READ_ONCE(h->id));
	dst = cpu_buffer->pages[cpu_buffer->rpage];
	/*
	 * A reader that keeps up claims a sub-buffer the writers are in
	 * again and again: when the reader's page holds this generation up
	 * to @from from the claim before, copy and walk only what is new,
	 * so that reading a sub-buffer costs its size, not its size times
	 * the claims.
	 */
	more = cpu_buffer->r_copied && cpu_buffer->r_copied == from &&
	       cpu_buffer->r_sbs == sbs;
	if (more) {
		memcpy((void *)dst + from, (void *)src + from, len - from);
		head = from;
		head_ts = cpu_buffer->r_copied_ts;
	} else {
		memcpy(dst, src, len);
		head_ts = rb_ts_at(dst, max_t(unsigned long, from, BUF_PAGE_HDR_SIZE),
				   &head);
	}
	ts = rb_walk(dst, head, head_ts, len, &at, head, &n);
	*drops = rb_claim_drop_mark(cpu_buffer, sbs);
	/*
	 * All of it read (filled exactly, not delivered yet): on to the
	 * next sub-buffer with none of its records consumed, as after
	 * rb_get_subbuf().
	 */
	if (len == rb_sb_size(cpu_buffer)) {
		next = rb_next_sbs(cpu_buffer, sbs);
		want = next << RB_K_BITS;
	} else {
		next = sbs + len;
		want = (next << RB_K_BITS) | ((cword & RB_K_MASK) + n);
	}

	/* rb_consume(): pairs with the writer's cmpxchg in rb_push_reader() */
	if (cmpxchg(&cpu_buffer->consumed, cword, want) != cword) {
		/* The copy may be torn: a writer began the next generation */
		rb_reader_copy_gone(cpu_buffer);
		return RB_CLAIM_AGAIN;
	}
	/* Up to the "rest unused" padding of a closed one (rb_switch_old()) */
	local_set(&dst->commit, at - BUF_PAGE_HDR_SIZE);
	rb_check_claim(cpu_buffer, dst, from, cword & RB_K_MASK, 0);
	rb_reader_set(cpu_buffer, cpu_buffer->rpage, sbs, head, head_ts, at,
		      pos, next);
	cpu_buffer->r_copied = at;
	cpu_buffer->r_copied_ts = ts;
	cpu_buffer->r_whole = false;
	return RB_CLAIM_GOT;
}

/*
 * Whether the writers delivered the sub-buffer at @sbs for the generation
 * the reader expects: its id has the "no reference" flag and that
 * generation's tag.  @id: the id read, for rb_get_subbuf()'s cmpxchg.
 */
static bool rb_subbuf_delivered(struct ring_buffer_per_cpu *cpu_buffer,
				unsigned long sbs, unsigned long *id)
{
	unsigned long gen = rb_gen(cpu_buffer, sbs) & RB_ID_TAG_MASK;

	*id = READ_ONCE(cpu_buffer->hot[rb_idx(cpu_buffer, sbs)].id);
	return (*id & RB_ID_NOREF) && (*id >> RB_ID_TAG_SHIFT) == gen;
}

/*
 * Whether a reader would find something to read now.  The same tests as
 * rb_claim(), without claiming: ring_buffer_empty_cpu() must agree with
 * ring_buffer_peek(), or ftrace_dump() (while (!empty) peek) never ends.
 */
static bool rb_readable(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long wpos, pos, sbs, id;

	if (rb_reader_between(cpu_buffer))
		return false;
	if (cpu_buffer->r_head < cpu_buffer->r_end)
		return true;
	wpos = rb_read_offset(cpu_buffer);
	pos = rb_cpos(READ_ONCE(cpu_buffer->consumed), wpos);
	if (pos == wpos)
		return false;
	sbs = pos & ~rb_sb_mask(cpu_buffer);
	if (rb_subbuf_delivered(cpu_buffer, sbs, &id))
		return true;
	return (pos & rb_sb_mask(cpu_buffer)) < rb_partial_len(cpu_buffer, sbs);
}

/*
 * Claim the next records into the reader's page.  @whole: only a
 * delivered sub-buffer will do (splice wants full pages).
 */
static bool rb_claim(struct ring_buffer_per_cpu *cpu_buffer, bool whole)
{
	int tries;

	for (tries = 0; tries < 2 * cpu_buffer->nr_subbufs + 8; tries++) {
		unsigned long cword, wpos, pos, sbs, id, drops;
		enum rb_claim r;

		cword = READ_ONCE(cpu_buffer->consumed);
		wpos = rb_read_offset(cpu_buffer);
		pos = rb_cpos(cword, wpos);
		if (pos == wpos)
			return false;
		sbs = pos & ~rb_sb_mask(cpu_buffer);
		if (rb_subbuf_delivered(cpu_buffer, sbs, &id))
			r = rb_get_subbuf(cpu_buffer, cword, pos, sbs, id, &drops);
		else if (!whole)
			r = rb_read_partial(cpu_buffer, cword, pos, sbs, &drops);
		else
			return false;

		if (r == RB_CLAIM_NONE)
			return false;
		if (r == RB_CLAIM_GOT) {
			rb_note_lost(cpu_buffer, drops, !(pos & rb_sb_mask(cpu_buffer)));
			if (cpu_buffer->r_head < cpu_buffer->r_end)
				return true;
		}
	}
	return false;
}

/* Next data record of the reader's page, skipping time and padding records. */
static struct ring_buffer_event *
rb_reader_next(struct ring_buffer_per_cpu *cpu_buffer, bool whole)
{
	struct buffer_data_page *bpage;
	struct ring_buffer_event *event;
	unsigned int len;

	/* Set on entry or not at all: rb_claim() clears what it sets */
	if (rb_reader_between(cpu_buffer))
		return NULL;
	for (;;) {
		if (cpu_buffer->r_head >= cpu_buffer->r_end &&
		    !rb_claim(cpu_buffer, whole))
			return NULL;
		bpage = cpu_buffer->pages[cpu_buffer->rpage];
		event = (void *)bpage + cpu_buffer->r_head;
		len = rb_record_length(event);
		if (RB_WARN_ON(cpu_buffer, !len ||
			       cpu_buffer->r_head + len > cpu_buffer->r_end)) {
			cpu_buffer->r_head = cpu_buffer->r_end;
			return NULL;
		}
		if (rb_is_data(event))
			return event;
		cpu_buffer->r_ts = rb_apply_ts(event, cpu_buffer->r_ts);
		cpu_buffer->r_head += len;
	}
}

static void rb_reader_advance(struct ring_buffer_per_cpu *cpu_buffer,
			      struct ring_buffer_event *event)
{
	cpu_buffer->r_ts = rb_apply_ts(event, cpu_buffer->r_ts);
	cpu_buffer->r_head += rb_record_length(event);
	cpu_buffer->read++;
	cpu_buffer->lost_pending = 0;
}

static struct ring_buffer_event *
rb_peek(struct ring_buffer_per_cpu *cpu_buffer, u64 *ts,
	unsigned long *lost_events)
{
	struct ring_buffer_event *event;

	event = rb_reader_next(cpu_buffer, false);
	if (!event)
		return NULL;
	if (ts)
		*ts = rb_apply_ts(event, cpu_buffer->r_ts);
	if (lost_events)
		*lost_events = cpu_buffer->lost_pending;
	return event;
}

/**
 * ring_buffer_peek - look at the next record of a CPU without consuming it
 * @buffer: the buffer to read
 * @cpu: the CPU buffer to read
 * @ts: where to store the record's time stamp, or NULL
 * @lost_events: where to store the number of records lost before it, or
 *	NULL
 *
 * Takes the reader lock (from an NMI it only tries it, and reads
 * without it if it fails: ftrace_dump() on a panic).  The record stays
 * valid until the next consuming read of @cpu.
 *
 * Return: the next record, or NULL if there is none.
 */
struct ring_buffer_event *
ring_buffer_peek(struct trace_buffer *buffer, int cpu, u64 *ts,
		 unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event;
	unsigned long flags;
	bool locked;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return NULL;
	cpu_buffer = buffer->buffers[cpu];
	locked = rb_reader_lock(cpu_buffer, &flags);
	event = rb_peek(cpu_buffer, ts, lost_events);
	rb_reader_unlock(cpu_buffer, flags, locked);
	return event;
}
EXPORT_SYMBOL_GPL(ring_buffer_peek);

/**
 * ring_buffer_consume - return and consume the next record of a CPU
 * @buffer: the buffer to read
 * @cpu: the CPU buffer to read
 * @ts: where to store the record's time stamp, or NULL
 * @lost_events: where to store the number of records lost (overwritten,
 *	or dropped in discard mode) before this one, or NULL
 *
 * The record stays valid until the next consuming read of @cpu: it
 * lives in the reader's own sub-buffer, out of the writers' reach.
 *
 * Return: the record, or NULL if there is none.
 */
struct ring_buffer_event *
ring_buffer_consume(struct trace_buffer *buffer, int cpu, u64 *ts,
		    unsigned long *lost_events)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct ring_buffer_event *event = NULL;
	unsigned long flags;
	bool locked;

	/* might be called in atomic */
	preempt_disable();

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		goto out;
	cpu_buffer = buffer->buffers[cpu];
	locked = rb_reader_lock(cpu_buffer, &flags);
	event = rb_peek(cpu_buffer, ts, lost_events);
	if (event)
		rb_reader_advance(cpu_buffer, event);
	rb_reader_unlock(cpu_buffer, flags, locked);
 out:
	preempt_enable();
	return event;
}
EXPORT_SYMBOL_GPL(ring_buffer_consume);

/**
 * ring_buffer_alloc_read_page - get a page for ring_buffer_read_page()
 * @buffer: the buffer the page will be read from
 * @cpu: the CPU buffer the page will be read from
 *
 * The page is of the buffer's sub-buffer size and comes from the CPU's
 * node; the CPU buffer keeps one freed page for the next call.
 *
 * Return: the page, ERR_PTR(-ENODEV) if @cpu has no buffer or
 * ERR_PTR(-ENOMEM).
 */
void *ring_buffer_alloc_read_page(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct buffer_data_page *bpage = NULL;
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return ERR_PTR(-ENODEV);

	cpu_buffer = buffer->buffers[cpu];
	rb_reader_lock_irqsave(cpu_buffer, &flags);
	bpage = cpu_buffer->free_page;
	cpu_buffer->free_page = NULL;
	rb_reader_unlock_irqrestore(cpu_buffer, flags);

	if (!bpage) {
		bpage = rb_alloc_sb_page(cpu_to_node(cpu), GFP_KERNEL | __GFP_NORETRY,
					 READ_ONCE(buffer->subbuf_order));
		if (!bpage)
			return ERR_PTR(-ENOMEM);
	}
	local_set(&bpage->commit, 0);
	return bpage;
}
EXPORT_SYMBOL_GPL(ring_buffer_alloc_read_page);

/**
 * ring_buffer_free_read_page - free a page from ring_buffer_alloc_read_page()
 * @buffer: the buffer the page was allocated for
 * @cpu: the CPU buffer the page was allocated for
 * @data: the page
 *
 * The CPU buffer keeps the page for the next ring_buffer_alloc_read_page()
 * unless it already has one, someone else holds a reference to the page
 * (splice), or the sub-buffer size changed since it was allocated.
 */
void ring_buffer_free_read_page(struct trace_buffer *buffer, int cpu, void *data)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct buffer_data_page *bpage = data;
	struct page *page = virt_to_page(bpage);
	unsigned long flags;

	if (!bpage)
		return;
	if (!buffer || !buffer->buffers || !buffer->buffers[cpu])
		return;

	cpu_buffer = buffer->buffers[cpu];

	/* If the page is still in use someplace else, we can't reuse it */
	if (page_ref_count(page) > 1)
		goto out;

	/* Keep it for the next reader only if the order did not change */
	rb_reader_lock_irqsave(cpu_buffer, &flags);
	if (!cpu_buffer->free_page &&
	    PAGE_SHIFT + compound_order(page) == cpu_buffer->sb_shift) {
		cpu_buffer->free_page = bpage;
		bpage = NULL;
	}
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
 out:
	rb_free_sb_page(bpage);
}
EXPORT_SYMBOL_GPL(ring_buffer_free_read_page);

/* Count the data records of the reader's page from r_head to r_end. */
static unsigned long rb_reader_count(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long at, n;

	rb_walk(cpu_buffer->pages[cpu_buffer->rpage], cpu_buffer->r_head,
		cpu_buffer->r_ts, cpu_buffer->r_end, &at, 0, &n);
	return n;
}

/**
 * ring_buffer_read_page - extract a sub-buffer from the ring buffer
 * @buffer: buffer to extract from
 * @data_page: the page to use, allocated by ring_buffer_alloc_read_page()
 * @len: amount to extract
 * @cpu: the cpu of the buffer to extract
 * @full: only extract a sub-buffer the writers are done with
 *
 * A whole claimed sub-buffer is handed over by swapping pages; otherwise
 * the records are copied.  The header of *@data_page says whether events
 * were lost before it, and how many if there is room after the data.
 * *@data_page must be of the buffer's sub-buffer size: a page allocated
 * before the size changed is refused.
 *
 * Return: >= 0 if data was read, -1 otherwise.
 */
int ring_buffer_read_page(struct trace_buffer *buffer,
			  void **data_page, size_t len, int cpu, int full)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct buffer_data_page *bpage = *data_page;
	struct buffer_data_page *rpage;
	unsigned long flags, commit, missed;
	int ret = -1;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return -1;
	if (len <= BUF_PAGE_HDR_SIZE)
		return -1;
	len -= BUF_PAGE_HDR_SIZE;

	cpu_buffer = buffer->buffers[cpu];
	rb_reader_lock_irqsave(cpu_buffer, &flags);

	/* The size is only stable under the reader lock */
	if (PAGE_SHIFT + compound_order(virt_to_page(bpage)) != cpu_buffer->sb_shift)
		goto out;
	if (len > rb_data_size(cpu_buffer))
		len = rb_data_size(cpu_buffer);

	if (cpu_buffer->r_head >= cpu_buffer->r_end &&
	    !rb_claim(cpu_buffer, full))
		goto out;

	/*
	 * @full (splice): records of a delivered sub-buffer only, never a
	 * copy of one the writers are still adding to (claimed by a
	 * trace_pipe reader before), as the page-based buffer gives no
	 * records from its commit page then.  The rest of a delivered one
	 * that trace_pipe began is given, as there, and so is the rest of a
	 * copy once the writers have left its sub-buffer, as the page-based
	 * buffer gives the rest of a partly read page once its commit page
	 * has moved on.  Until then full_hit() counts no sub-buffer beyond
	 * the copy's, so a blocking splice sleeps; refused after, it would
	 * find the buffer full enough and this refusal, again and again.
	 */
	if (full && !cpu_buffer->r_whole &&
	    rb_sb_seq(cpu_buffer, rb_read_offset(cpu_buffer)) ==
	    rb_sb_seq(cpu_buffer, cpu_buffer->r_sbs))
		goto out;

	rpage = cpu_buffer->pages[cpu_buffer->rpage];
	missed = cpu_buffer->lost_pending;

	if (cpu_buffer->r_head == BUF_PAGE_HDR_SIZE &&
	    cpu_buffer->r_end - BUF_PAGE_HDR_SIZE <= len) {
		/* Hand the whole page over; the caller's becomes ours */
		cpu_buffer->read += rb_reader_count(cpu_buffer);
		commit = cpu_buffer->r_end - BUF_PAGE_HDR_SIZE;
		rb_reader_moving(cpu_buffer, true);
		cpu_buffer->pages[cpu_buffer->rpage] = bpage;
		rb_test_hook(cpu_buffer, RB_TEST_HANDED_OVER);
		rb_reader_copy_gone(cpu_buffer);
		cpu_buffer->r_head = cpu_buffer->r_end;
		rb_reader_moving(cpu_buffer, false);
		bpage = rpage;
		*data_page = bpage;
	} else {
		/* Copy whole records from r_head on */
		unsigned long off = cpu_buffer->r_head;
		u64 ts = cpu_buffer->r_ts;

		bpage->time_stamp = ts;
		commit = 0;
		while (off < cpu_buffer->r_end) {
			struct ring_buffer_event *event = (void *)rpage + off;
			unsigned int elen = rb_record_length(event);

			if (!elen || commit + elen > len)
				break;
			memcpy(&bpage->data[commit], event, elen);
			ts = rb_apply_ts(event, ts);
			cpu_buffer->read += rb_is_data(event);
			commit += elen;
			off += elen;
		}
		if (!commit)
			goto out;
		cpu_buffer->r_head = off;
		cpu_buffer->r_ts = ts;
	}

	local_set(&bpage->commit, commit);
	if (missed) {
		/* Store the count if there is room for it after the data */
		if (rb_data_size(cpu_buffer) - commit >= sizeof(missed)) {
			memcpy(&bpage->data[commit], &missed, sizeof(missed));
			local_add(RB_MISSED_STORED, &bpage->commit);
			commit += sizeof(missed);
		}
		local_add(RB_MISSED_EVENTS, &bpage->commit);
	}
	cpu_buffer->lost_pending = 0;
	/* Do not leak stale data past what the reader should see */
	if (commit < rb_data_size(cpu_buffer))
		memset(&bpage->data[commit], 0, rb_data_size(cpu_buffer) - commit);
	ret = 0;
 out:
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(ring_buffer_read_page);

/* ------------------------------------------------------------------ */
/* Non-consuming iterator                                              */
/* ------------------------------------------------------------------ */

/*
 * The end of the readable records of the sub-buffer at @sbs (offset
 * from its page start) and its page, or 0 if none can be read now;
 * @done: the writers are done with it.
 */
static unsigned long rb_iter_limit(struct ring_buffer_per_cpu *cpu_buffer,
				   unsigned long sbs,
				   struct buffer_data_page **bpage, bool *done)
{
	unsigned long idx = rb_idx(cpu_buffer, sbs);
	unsigned long gen = rb_gen(cpu_buffer, sbs);
	unsigned long end;

	*done = rb_gen_delivered(cpu_buffer, idx, gen);
	if (*done) {
		/* Delivered count before header: pairs with rb_deliver() */
		smp_rmb();
		*bpage = rb_id_page(cpu_buffer, READ_ONCE(cpu_buffer->hot[idx].id));
		return (local_read(&(*bpage)->commit) & RB_COMMIT_MASK) +
			BUF_PAGE_HDR_SIZE;
	}
	end = rb_partial_len(cpu_buffer, sbs);
	if (end)
		*bpage = rb_id_page(cpu_buffer, READ_ONCE(cpu_buffer->hot[idx].id));
	return end;
}

/* Go on from the first record the reader holds but has not returned. */
static void rb_iter_to_reader(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;

	iter->pos = cpu_buffer->r_sbs + cpu_buffer->r_head;
	iter->ts = cpu_buffer->r_ts;
	iter->ts_valid = true;
}

static void rb_iter_reset(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;

	iter->have_event = false;
	iter->resets = cpu_buffer->resets;
	if (cpu_buffer->r_head < cpu_buffer->r_end) {
		rb_iter_to_reader(iter);
	} else {
		iter->pos = rb_cpos(READ_ONCE(cpu_buffer->consumed),
				    rb_read_offset(cpu_buffer));
		iter->ts_valid = false;
	}
}

/*
 * Whether writers overwrote the record at @pos (in the ring) that the
 * iterator has just read: they push the consumed position past it before
 * they store into it.
 */
static bool rb_iter_overwritten(struct ring_buffer_per_cpu *cpu_buffer,
				unsigned long pos)
{
	/* The read before the check: pairs with rb_push_reader()'s cmpxchg */
	smp_rmb();
	return rb_pos_before(pos, rb_cpos(READ_ONCE(cpu_buffer->consumed),
					  rb_read_offset(cpu_buffer)));
}

/*
 * Whether the iterator, at ring position @pos, is behind records that the
 * reader holds on its own page: the reader claimed the sub-buffer at @pos,
 * or one after it, since the iterator last looked.  Those records come
 * next, although the consumed position is already past them.
 */
static bool rb_iter_behind_reader(struct ring_buffer_per_cpu *cpu_buffer,
				  unsigned long pos)
{
	return cpu_buffer->r_head < cpu_buffer->r_end &&
	       rb_pos_before(rb_sbs_at(cpu_buffer, pos),
			     cpu_buffer->r_sbs + cpu_buffer->r_head);
}

/*
 * Whether the records from ring position @pos up to the consumed position
 * @cpos were all consumed, none overwritten: the reader's claims took
 * the consumed position from r_from to r_next without a gap, and no
 * writer has pushed it since.
 */
static bool rb_iter_consumed(struct ring_buffer_per_cpu *cpu_buffer,
			     unsigned long pos, unsigned long cpos)
{
	return cpos == cpu_buffer->r_next &&
	       !rb_pos_before(pos, cpu_buffer->r_from);
}

/*
 * Find the next data record at or after iter->pos and copy it.  Records
 * still in the ring are read in place: the copy counts only if the
 * consumed position has not passed it afterwards (a writer pushes it
 * before it overwrites anything); else the iterator notes missed events
 * and goes on from the consumed position.  Records the reader has
 * claimed but not returned are read from its page.
 */
static bool rb_iter_fetch(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	int loops;

	if (unlikely(iter->resets != cpu_buffer->resets)) {
		/* Emptied under the iterator ("echo > trace"): start over */
		rb_iter_reset(iter);
		iter->missed = true;
	}
	for (loops = 0; loops < 3 * cpu_buffer->nr_subbufs + 64; loops++) {
		struct buffer_data_page *bpage;
		struct ring_buffer_event *event;
		unsigned long pos = iter->pos;
		unsigned long sbs, end, off, cpos, wpos;
		bool in_reader, done = false;
		unsigned int len;
		u64 ts;

		wpos = rb_read_offset(cpu_buffer);
		cpos = rb_cpos(READ_ONCE(cpu_buffer->consumed), wpos);
		if (cpu_buffer->r_end &&
		    pos == cpu_buffer->r_sbs + cpu_buffer->r_end) {
			/*
			 * Past the records the reader claimed, returned or
			 * not, the ring goes on where the claim left the
			 * consumed position (r_next): in the same sub-buffer
			 * when the reader took part of one the writers are
			 * still filling (the time goes on from the last
			 * record), at the next one otherwise.  A consumed
			 * position past that: writers overwrote what came
			 * next while the reader held its page.
			 */
			if (cpos != cpu_buffer->r_next)
				iter->missed = true;
			iter->ts_valid = iter->ts_valid && cpos == pos;
			pos = cpos;
			iter->pos = cpos;
		}
		in_reader = cpu_buffer->r_head < cpu_buffer->r_end &&
			pos - cpu_buffer->r_sbs >= cpu_buffer->r_head &&
			pos - cpu_buffer->r_sbs < cpu_buffer->r_end;
		if (!in_reader && rb_iter_behind_reader(cpu_buffer, pos)) {
			/*
			 * The reader returned the records before its head, so
			 * they were consumed, not lost, and so were those of
			 * the claims before its own back to r_from; before
			 * that, writers overwrote some.
			 */
			if (rb_pos_before(rb_sbs_at(cpu_buffer, pos),
					  cpu_buffer->r_from))
				iter->missed = true;
			rb_iter_to_reader(iter);
			pos = iter->pos;
			in_reader = true;
		}
		if (in_reader) {
			sbs = cpu_buffer->r_sbs;
			bpage = cpu_buffer->pages[cpu_buffer->rpage];
			end = cpu_buffer->r_end;
		} else {
			/*
			 * A record that fills the last sub-buffer exactly leaves
			 * the position at the unused index nr_subbufs: that is
			 * index 0 of the next generation (rb_sbs_at()), not a
			 * sub-buffer to look up in meta[].  (The reader's own
			 * positions, above, are relative to r_sbs.)
			 */
			pos = rb_sbs_at(cpu_buffer, pos);
			if (rb_pos_before(pos, cpos) || rb_pos_before(wpos, pos)) {
				/* Overwritten, or consumed (not a loss), under us */
				if (rb_pos_before(wpos, pos) ||
				    !rb_iter_consumed(cpu_buffer, pos, cpos))
					iter->missed = true;
				pos = cpos;
				iter->pos = cpos;
				iter->ts_valid = false;
			}
			if (pos == wpos)
				return false;
			sbs = pos & ~rb_sb_mask(cpu_buffer);
			end = rb_iter_limit(cpu_buffer, sbs, &bpage, &done);
			if (!end)
				return false;
		}
		off = pos & rb_sb_mask(cpu_buffer);
		if (!iter->ts_valid || off < BUF_PAGE_HDR_SIZE) {
			iter->ts = rb_ts_at(bpage, max_t(unsigned long, off,
							 BUF_PAGE_HDR_SIZE), &off);
			iter->ts_valid = true;
			pos = sbs + off;
			iter->pos = pos;
		}
		if (off >= end) {
			if (!done)
				return false;	/* writers are in this one */
			iter->pos = rb_next_sbs(cpu_buffer, sbs);
			iter->ts_valid = false;
			continue;
		}
		event = (void *)bpage + off;
		len = rb_record_length(event);
		if (!len || off + len > end || len > iter->event_size) {
			/* A length torn by writers: report what they took */
			if (!in_reader && rb_iter_overwritten(cpu_buffer, pos))
				continue;
			iter->pos = rb_next_sbs(cpu_buffer, sbs);
			iter->ts_valid = false;
			continue;
		}
		memcpy(iter->event, event, len);
		ts = rb_apply_ts(iter->event, iter->ts);
		if (!in_reader && rb_iter_overwritten(cpu_buffer, pos))
			continue;	/* start over from the consumed position */
		if (!rb_is_data(iter->event)) {
			iter->ts = ts;
			iter->pos = pos + len;
			continue;
		}
		iter->ev_ts = ts;
		iter->next_pos = pos + len;
		iter->have_event = true;
		return true;
	}
	return false;
}

/**
 * ring_buffer_iter_peek - the record at the iterator, without moving it
 * @iter: the iterator, from ring_buffer_read_start()
 * @ts: where to store the record's time stamp, or NULL
 *
 * The iterator reads without consuming, while writers go on: records
 * overwritten under it are skipped, and ring_buffer_iter_dropped() says
 * so.  The record is a copy owned by the iterator, valid until its next
 * call.
 *
 * Return: the record, or NULL at the end of the data.
 */
struct ring_buffer_event *
ring_buffer_iter_peek(struct ring_buffer_iter *iter, u64 *ts)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	struct ring_buffer_event *event = NULL;
	unsigned long flags;

	rb_reader_lock_irqsave(cpu_buffer, &flags);
	if (iter->have_event || rb_iter_fetch(iter)) {
		event = iter->event;
		if (ts)
			*ts = iter->ev_ts;
	}
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
	return event;
}
EXPORT_SYMBOL_GPL(ring_buffer_iter_peek);

/**
 * ring_buffer_iter_advance - move the iterator to the next record
 * @iter: the iterator
 */
void ring_buffer_iter_advance(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;

	rb_reader_lock_irqsave(cpu_buffer, &flags);
	if (iter->have_event || rb_iter_fetch(iter)) {
		iter->pos = iter->next_pos;
		iter->ts = iter->ev_ts;
		iter->have_event = false;
	}
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
}
EXPORT_SYMBOL_GPL(ring_buffer_iter_advance);

/**
 * ring_buffer_iter_reset - move the iterator back to the oldest record
 * @iter: the iterator
 *
 * The oldest record not consumed yet: the first one the reader has not
 * returned.
 */
void ring_buffer_iter_reset(struct ring_buffer_iter *iter)
{
	struct ring_buffer_per_cpu *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;

	rb_reader_lock_irqsave(cpu_buffer, &flags);
	rb_iter_reset(iter);
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
}
EXPORT_SYMBOL_GPL(ring_buffer_iter_reset);

/**
 * ring_buffer_iter_empty - whether the iterator is at the end of the data
 * @iter: the iterator
 *
 * Return: 1 if ring_buffer_iter_peek() finds no record, 0 otherwise.
 */
int ring_buffer_iter_empty(struct ring_buffer_iter *iter)
{
	return !ring_buffer_iter_peek(iter, NULL);
}
EXPORT_SYMBOL_GPL(ring_buffer_iter_empty);

/**
 * ring_buffer_iter_dropped - whether the iterator skipped records
 * @iter: the iterator
 *
 * Records overwritten or reset under the iterator since the last call
 * are skipped; this says so once and clears the flag.  Records a
 * consuming reader took before the iterator got to them are skipped too,
 * but they were read, not lost: this does not report them.
 *
 * Return: true if records were lost to the iterator.
 */
bool ring_buffer_iter_dropped(struct ring_buffer_iter *iter)
{
	bool ret = iter->missed;

	iter->missed = false;
	return ret;
}
EXPORT_SYMBOL_GPL(ring_buffer_iter_dropped);

/**
 * ring_buffer_read_start - start a non-consuming read of a CPU buffer
 * @buffer: the buffer to read
 * @cpu: the CPU buffer to read
 * @flags: gfp flags for the iterator and its copy of a record
 *
 * Writers go on while the iterator reads; ring_buffer_resize() of the
 * CPU fails with -EBUSY until ring_buffer_read_finish().
 *
 * Return: the iterator at the oldest record, or NULL if @cpu has no
 * buffer or the allocation failed.
 */
struct ring_buffer_iter *
ring_buffer_read_start(struct trace_buffer *buffer, int cpu, gfp_t flags)
{
	struct ring_buffer_iter *iter;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return NULL;

	iter = kzalloc(sizeof(*iter), flags);
	if (!iter)
		return NULL;
	iter->cpu_buffer = buffer->buffers[cpu];
	/*
	 * A sub-buffer size change that raced with this open is caught by
	 * the size check in rb_iter_fetch(), not by resize_disabled.
	 */
	iter->event_size = rb_data_size(iter->cpu_buffer);
	iter->event = kmalloc(iter->event_size, flags);
	if (!iter->event) {
		kfree(iter);
		return NULL;
	}
	atomic_inc(&iter->cpu_buffer->resize_disabled);
	ring_buffer_iter_reset(iter);
	return iter;
}
EXPORT_SYMBOL_GPL(ring_buffer_read_start);

/**
 * ring_buffer_read_finish - end a read started by ring_buffer_read_start()
 * @iter: the iterator, freed here
 */
void ring_buffer_read_finish(struct ring_buffer_iter *iter)
{
	atomic_dec(&iter->cpu_buffer->resize_disabled);
	kfree(iter->event);
	kfree(iter);
}
EXPORT_SYMBOL_GPL(ring_buffer_read_finish);

/* ------------------------------------------------------------------ */
/* Waiting                                                             */
/* ------------------------------------------------------------------ */

static bool rb_watermark_hit(struct trace_buffer *buffer, int cpu, int full)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long flags;
	bool ret;

	/* Reads of all CPUs always wait for any data */
	if (cpu == RING_BUFFER_ALL_CPUS)
		return !ring_buffer_empty(buffer);

	if (ring_buffer_empty_cpu(buffer, cpu))
		return false;
	if (!full)
		return true;

	cpu_buffer = buffer->buffers[cpu];
	rb_reader_lock_irqsave(cpu_buffer, &flags);
	ret = full_hit(cpu_buffer, full);
	if (!ret && (!cpu_buffer->shortest_full ||
		     cpu_buffer->shortest_full > full))
		cpu_buffer->shortest_full = full;
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
	return ret;
}

static bool rb_wait_cond(struct rb_irq_work *rbwork, struct trace_buffer *buffer,
			 int cpu, int full, long *once)
{
	if (rb_watermark_hit(buffer, cpu, full))
		return true;

	/* wait_event() calls this twice before it sleeps: wake once */
	if (*once > 1)
		return true;
	(*once)++;

	/*
	 * After the task is queued, ask writers to wake it through
	 * irq_work.  Spurious wake-ups are fine.
	 */
	if (full)
		WRITE_ONCE(rbwork->full_waiters_pending, true);
	else
		WRITE_ONCE(rbwork->waiters_pending, true);
	return false;
}

int ring_buffer_wait(struct trace_buffer *buffer, int cpu, int full)
{
	struct wait_queue_head *waitq;
	struct rb_irq_work *rbwork;
	long once = 0;

	if (cpu == RING_BUFFER_ALL_CPUS) {
		rbwork = &buffer->irq_work;
		/* Full only makes sense on per cpu reads */
		full = 0;
	} else {
		if (!cpumask_test_cpu(cpu, buffer->cpumask))
			return -ENODEV;
		rbwork = &buffer->buffers[cpu]->irq_work;
	}

	waitq = full ? &rbwork->full_waiters : &rbwork->waiters;
	return wait_event_interruptible(*waitq,
			rb_wait_cond(rbwork, buffer, cpu, full, &once));
}

__poll_t ring_buffer_poll_wait(struct trace_buffer *buffer, int cpu,
			       struct file *filp, poll_table *poll_table, int full)
{
	struct ring_buffer_per_cpu *cpu_buffer = NULL;
	struct rb_irq_work *rbwork;

	if (cpu == RING_BUFFER_ALL_CPUS) {
		rbwork = &buffer->irq_work;
		full = 0;
	} else {
		if (!cpumask_test_cpu(cpu, buffer->cpumask))
			return EPOLLERR;
		cpu_buffer = buffer->buffers[cpu];
		rbwork = &cpu_buffer->irq_work;
	}

	if (full) {
		unsigned long flags;
		bool hit;

		poll_wait(filp, &rbwork->full_waiters, poll_table);

		/* The geometry full_hit() reads is stable under the reader lock */
		rb_reader_lock_irqsave(cpu_buffer, &flags);
		if (!cpu_buffer->shortest_full ||
		    cpu_buffer->shortest_full > full)
			cpu_buffer->shortest_full = full;
		hit = full_hit(cpu_buffer, full);
		rb_reader_unlock_irqrestore(cpu_buffer, flags);
		if (hit && !ring_buffer_empty_cpu(buffer, cpu))
			return EPOLLIN | EPOLLRDNORM;
		/*
		 * shortest_full before the flag: a writer that sees the flag
		 * compares against it (rb_wakeup_full()).
		 */
		smp_mb();
		WRITE_ONCE(rbwork->full_waiters_pending, true);
		return 0;
	}

	poll_wait(filp, &rbwork->waiters, poll_table);
	WRITE_ONCE(rbwork->waiters_pending, true);
	/*
	 * The flag before the emptiness check.  FIXME: rb_wakeups() has no
	 * barrier between a writer's commit and its read of the flag, so a
	 * writer and this poller can each miss the other's store; the
	 * wake-up then comes with the next commit, as with the page-based
	 * buffer, whose rb_wakeups() has none either.
	 */
	smp_mb();

	if ((cpu == RING_BUFFER_ALL_CPUS && !ring_buffer_empty(buffer)) ||
	    (cpu != RING_BUFFER_ALL_CPUS && !ring_buffer_empty_cpu(buffer, cpu)))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

void ring_buffer_wake_waiters(struct trace_buffer *buffer, int cpu)
{
	struct rb_irq_work *rbwork;

	if (!buffer)
		return;

	if (cpu == RING_BUFFER_ALL_CPUS) {
		/* Wake up individual ones too. One level recursion */
		for_each_buffer_cpu(buffer, cpu)
			ring_buffer_wake_waiters(buffer, cpu);
		rbwork = &buffer->irq_work;
	} else {
		if (WARN_ON_ONCE(!buffer->buffers))
			return;
		if (WARN_ON_ONCE(cpu >= nr_cpu_ids))
			return;
		/* The CPU buffer may not have been initialized yet */
		if (!buffer->buffers[cpu])
			return;
		rbwork = &buffer->buffers[cpu]->irq_work;
	}

	/* This can be called in any context */
	irq_work_queue(&rbwork->work);
}

/* ------------------------------------------------------------------ */
/* Allocation, reset, resize                                           */
/* ------------------------------------------------------------------ */

struct rb_geom {
	unsigned long			nr_subbufs;
	unsigned int			nr_shift;
	unsigned int			sb_shift;
	struct rb_sb_hot		*hot;
	struct rb_sb_meta		*meta;
	struct buffer_data_page		**pages;
};

/* Frees what rb_alloc_geom() got and forgets it: safe to call twice. */
static void rb_free_geom(struct rb_geom *g)
{
	unsigned long i;

	if (g->pages) {
		for (i = 0; i <= g->nr_subbufs; i++)
			rb_free_sb_page(g->pages[i]);
	}
	kvfree(g->pages);
	kvfree(g->hot);		/* and meta, in the same allocation */
	memset(g, 0, sizeof(*g));
}

/*
 * All memory of a buffer is allocated (and zeroed) here, never while
 * tracing: @nr sub-buffers of 2^@order pages plus the reader's spare.  A
 * size the machine cannot have fails with -ENOMEM and no warning, as in
 * the page-based buffer (__rb_allocate_pages()); on failure @g is left
 * empty.
 */
static int rb_alloc_geom(struct rb_geom *g, unsigned long nr,
			 unsigned int order, int cpu)
{
	bool user = !(current->flags & PF_KTHREAD);
	int node = cpu_to_node(cpu);
	unsigned long i;
	size_t hot;
	gfp_t mflags;

	memset(g, 0, sizeof(*g));
	/*
	 * si_mem_available() is only an estimate, but it keeps an obviously
	 * impossible request from pushing the machine into reclaim first.
	 */
	if ((long)((nr + 1) << order) > si_mem_available())
		return -ENOMEM;

	/*
	 * Like the page-based buffer: don't trigger the OOM killer for a
	 * size the user asked for, and let it pick the resizing task if it
	 * comes to that.
	 */
	mflags = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN | __GFP_ZERO;

	g->nr_subbufs = nr;
	g->nr_shift = order_base_2(nr);
	g->sb_shift = PAGE_SHIFT + order;
	/*
	 * Megabytes for large buffers: let them come from vmalloc.  The hot
	 * and the cold metadata in one allocation, the cold array from the
	 * next cache line on: kmalloc rounds a large size up to a power of
	 * two, and two arrays would pay that twice.
	 */
	hot = ALIGN(array_size(nr, sizeof(*g->hot)), SMP_CACHE_BYTES);
	g->hot = kvzalloc_node(size_add(hot, array_size(nr, sizeof(*g->meta))),
			       mflags, node);
	g->pages = kvzalloc_node(array_size(nr + 1, sizeof(*g->pages)), mflags,
				 node);
	if (!g->hot || !g->pages)
		goto fail;
	g->meta = (void *)g->hot + hot;
	if (user)
		set_current_oom_origin();
	for (i = 0; i <= nr; i++) {
		g->pages[i] = rb_alloc_sb_page(node, mflags, order);
		if (!g->pages[i])
			break;
		if (user && fatal_signal_pending(current))
			break;
	}
	if (user)
		clear_current_oom_origin();
	if (i <= nr)
		goto fail;
	return 0;
 fail:
	rb_free_geom(g);
	return -ENOMEM;
}

/*
 * Empty the buffer.  The reader's page stays the reader's: ring_buffer_peek()
 * and ring_buffer_consume() hand out pointers into it that trace_pipe prints
 * from after the reader lock is dropped, so a reset must not give that page
 * to the writers (the page-based buffer keeps its reader page too).  Every
 * sub-buffer keeps the page it has; only the flags and generations go.
 */
static void rb_reset_cpu(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long i;

	local_set(&cpu_buffer->offset, 0);
	cpu_buffer->lts = 0;
	cpu_buffer->lts_hint = 0;
	/* No writer is inside (quiesced): no reservation is open */
	memset(cpu_buffer->wctx, 0, sizeof(cpu_buffer->wctx));
	for (i = 0; i < cpu_buffer->nr_subbufs; i++) {
		struct rb_sb_hot *h = &cpu_buffer->hot[i];

		local_set(&h->cc, 0);
		h->id = RB_ID(h->id & RB_ID_PAGE_MASK, 0, 0);
	}
	memset(cpu_buffer->meta, 0,
	       array_size(cpu_buffer->nr_subbufs, sizeof(*cpu_buffer->meta)));
	local_set(&cpu_buffer->entries, 0);
	local_set(&cpu_buffer->overrun, 0);
	local_set(&cpu_buffer->commit_overrun, 0);
	local_set(&cpu_buffer->dropped_events, 0);
	cpu_buffer->consumed = 0;
	cpu_buffer->r_sbs = 0;
	cpu_buffer->r_head = 0;
	cpu_buffer->r_end = 0;
	cpu_buffer->r_next = 0;
	cpu_buffer->r_from = 0;
	cpu_buffer->r_ts = 0;
	rb_reader_copy_gone(cpu_buffer);
	cpu_buffer->seen_overrun = 0;
	cpu_buffer->seen_drops = 0;
	cpu_buffer->lost_pending = 0;
	cpu_buffer->read = 0;
	cpu_buffer->shortest_full = 0;
	/* Positions start over: iterators must not take theirs for new ones */
	cpu_buffer->resets++;
}

/*
 * Install a new geometry: sub-buffer i on page i, the last page the
 * reader's.  With @keep_reader the current reader page takes that place
 * (the new spare goes to the old geometry, freed with it), for the reason
 * given above rb_reset_cpu().
 */
static void rb_set_geom(struct ring_buffer_per_cpu *cpu_buffer, struct rb_geom *g,
			bool keep_reader)
{
	unsigned long i;

	if (keep_reader) {
		swap(g->pages[g->nr_subbufs], cpu_buffer->pages[cpu_buffer->rpage]);
		rb_test_hook(cpu_buffer, RB_TEST_GEOMETRY);
	}
	cpu_buffer->nr_subbufs = g->nr_subbufs;
	cpu_buffer->nr_shift = g->nr_shift;
	cpu_buffer->sb_shift = g->sb_shift;
	cpu_buffer->hot = g->hot;
	cpu_buffer->meta = g->meta;
	cpu_buffer->pages = g->pages;
	for (i = 0; i < g->nr_subbufs; i++)
		g->hot[i].id = RB_ID(i, 0, 0);
	cpu_buffer->rpage = g->nr_subbufs;
	rb_reader_copy_gone(cpu_buffer);
}

static void rb_get_geom(struct ring_buffer_per_cpu *cpu_buffer, struct rb_geom *g)
{
	g->nr_subbufs = cpu_buffer->nr_subbufs;
	g->nr_shift = cpu_buffer->nr_shift;
	g->sb_shift = cpu_buffer->sb_shift;
	g->hot = cpu_buffer->hot;
	g->meta = cpu_buffer->meta;
	g->pages = cpu_buffer->pages;
}

static struct ring_buffer_per_cpu *
rb_allocate_cpu_buffer(struct trace_buffer *buffer, unsigned long nr, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_geom g;

	cpu_buffer = kzalloc_node(ALIGN(sizeof(*cpu_buffer), cache_line_size()),
				  GFP_KERNEL, cpu_to_node(cpu));
	if (!cpu_buffer)
		return NULL;

	cpu_buffer->cpu = cpu;
	cpu_buffer->buffer = buffer;
	raw_spin_lock_init(&cpu_buffer->reader_lock);
	cpu_buffer->r_owner = RB_NO_OWNER;
	lockdep_set_class(&cpu_buffer->reader_lock, buffer->reader_lock_key);
	init_irq_work(&cpu_buffer->irq_work.work, rb_wake_up_waiters);
	init_waitqueue_head(&cpu_buffer->irq_work.waiters);
	init_waitqueue_head(&cpu_buffer->irq_work.full_waiters);

	if (rb_alloc_geom(&g, nr, buffer->subbuf_order, cpu)) {
		kfree(cpu_buffer);
		return NULL;
	}
	rb_set_geom(cpu_buffer, &g, false);
	rb_reset_cpu(cpu_buffer);
	return cpu_buffer;
}

static void rb_free_cpu_buffer(struct ring_buffer_per_cpu *cpu_buffer)
{
	struct rb_geom g;

	rb_get_geom(cpu_buffer, &g);
	rb_free_geom(&g);
	rb_free_sb_page(cpu_buffer->free_page);
	kfree(cpu_buffer);
}

/* Data bytes of a sub-buffer of 2^@order pages */
static unsigned long rb_order_data_size(unsigned int order)
{
	return (PAGE_SIZE << order) - BUF_PAGE_HDR_SIZE;
}

/*
 * Sub-buffers of 2^@order pages for @size bytes: at least 2, as the
 * page-based buffer's pages.
 */
static unsigned long rb_size_to_nr(unsigned long size, unsigned int order)
{
	unsigned long nr = DIV_ROUND_UP(size, rb_order_data_size(order));

	if (nr < 2)
		nr = 2;
	if (nr > (RB_ID_PAGE_MASK >> 1))
		return 0;
	return nr;
}

/**
 * __ring_buffer_alloc - allocate a new ring buffer
 * @size: the size in bytes of data per CPU
 * @flags: RB_FL_OVERWRITE for flight-recorder mode, 0 for discard mode
 * @key: the lockdep class of the reader locks
 *
 * The size is rounded up to whole sub-buffers of one page, two at
 * least.  CPU buffers are allocated for the CPU this runs on and then
 * for each CPU as it comes up (CPUHP_TRACE_RB_PREPARE).  Use the
 * ring_buffer_alloc() macro, which provides @key.
 *
 * Return: the buffer, or NULL on failure.
 */
struct trace_buffer *__ring_buffer_alloc(unsigned long size, unsigned int flags,
					 struct lock_class_key *key)
{
	struct trace_buffer *buffer;
	unsigned long nr;
	int bsize;
	int cpu;
	int ret;

	nr = rb_size_to_nr(size, 0);
	if (!nr)
		return NULL;

	/* keep it in its own cache line */
	buffer = kzalloc(ALIGN(sizeof(*buffer), cache_line_size()),
			 GFP_KERNEL);
	if (!buffer)
		return NULL;

	if (!zalloc_cpumask_var(&buffer->cpumask, GFP_KERNEL))
		goto fail_free_buffer;

	buffer->flags = flags;
	buffer->clock = trace_clock_local;
	buffer->reader_lock_key = key;

	init_irq_work(&buffer->irq_work.work, rb_wake_up_waiters);
	init_waitqueue_head(&buffer->irq_work.waiters);

	buffer->cpus = nr_cpu_ids;

	bsize = sizeof(void *) * nr_cpu_ids;
	buffer->buffers = kzalloc(ALIGN(bsize, cache_line_size()),
				  GFP_KERNEL);
	if (!buffer->buffers)
		goto fail_free_cpumask;

	cpu = raw_smp_processor_id();
	cpumask_set_cpu(cpu, buffer->cpumask);
	buffer->buffers[cpu] = rb_allocate_cpu_buffer(buffer, nr, cpu);
	if (!buffer->buffers[cpu])
		goto fail_free_buffers;

	ret = cpuhp_state_add_instance(CPUHP_TRACE_RB_PREPARE, &buffer->node);
	if (ret < 0)
		goto fail_free_buffers;

	mutex_init(&buffer->mutex);

	return buffer;

 fail_free_buffers:
	for_each_buffer_cpu(buffer, cpu) {
		if (buffer->buffers[cpu])
			rb_free_cpu_buffer(buffer->buffers[cpu]);
	}
	kfree(buffer->buffers);

 fail_free_cpumask:
	free_cpumask_var(buffer->cpumask);

 fail_free_buffer:
	kfree(buffer);
	return NULL;
}
EXPORT_SYMBOL_GPL(__ring_buffer_alloc);

/**
 * ring_buffer_free - free a ring buffer
 * @buffer: the buffer to free
 *
 * No writer, reader or iterator may use @buffer any more.
 */
void ring_buffer_free(struct trace_buffer *buffer)
{
	int cpu;

	cpuhp_state_remove_instance(CPUHP_TRACE_RB_PREPARE, &buffer->node);

	irq_work_sync(&buffer->irq_work.work);

	for_each_buffer_cpu(buffer, cpu) {
		irq_work_sync(&buffer->buffers[cpu]->irq_work.work);
		rb_free_cpu_buffer(buffer->buffers[cpu]);
	}

	kfree(buffer->buffers);
	free_cpumask_var(buffer->cpumask);

	kfree(buffer);
}
EXPORT_SYMBOL_GPL(ring_buffer_free);

void ring_buffer_set_clock(struct trace_buffer *buffer,
			   u64 (*clock)(void))
{
	buffer->clock = clock;
}

void ring_buffer_set_time_stamp_abs(struct trace_buffer *buffer, bool abs)
{
	buffer->time_stamp_abs = abs;
}

bool ring_buffer_time_stamp_abs(struct trace_buffer *buffer)
{
	return buffer->time_stamp_abs;
}

/*
 * Stop new writers of @cpu_buffer.  Those already inside are not waited
 * for here: callers follow with synchronize_rcu() (writers run with
 * preemption off).
 */
static void rb_quiesce_begin(struct ring_buffer_per_cpu *cpu_buffer)
{
	atomic_inc(&cpu_buffer->record_disabled);
}

static void rb_quiesce_end(struct ring_buffer_per_cpu *cpu_buffer)
{
	atomic_dec(&cpu_buffer->record_disabled);
}

/* What a resize carries from the old ring into the new one. */
struct rb_carry {
	unsigned long	nr;		/* sub-buffers carried */
	unsigned long	full;		/* of them, delivered ones */
	unsigned long	offset;		/* the write offset in the new ring */
	unsigned long	consumed;	/* the consumed word in the new ring */
	unsigned long	lost;		/* records left behind */
	u64		ts;		/* time of the last record carried */
};

/*
 * rb_carry_over(): copy what the reader has not consumed from the ring of
 * @cpu_buffer into the first sub-buffers of the new geometry @g, as their
 * generation 0: whole sub-buffers (header, records, commit), so that each
 * decodes as before, the newest ones when not all fit.  Writers are
 * quiesced and the reader lock is held, so every reservation is committed
 * and nothing moves.  The records the reader already took into its page
 * stay there (rb_set_geom() keeps that page); those left behind are
 * counted as overrun and reported to the reader like any other.  The ids
 * are set by rb_carry_set(), after rb_set_geom().
 */
static void rb_carry_over(struct ring_buffer_per_cpu *cpu_buffer,
			  struct rb_geom *g, struct rb_carry *co)
{
	unsigned long wpos = rb_read_offset(cpu_buffer);
	unsigned long cword = READ_ONCE(cpu_buffer->consumed);
	unsigned long cpos = rb_cpos(cword, wpos);
	unsigned long first, last, skip, seq, pos, at;

	memset(co, 0, sizeof(*co));
	/*
	 * A sub-buffer filled exactly waits for the next writer to deliver
	 * it; there is none now, so deliver it here, on the writers' behalf.
	 */
	if (!(wpos & rb_sb_mask(cpu_buffer)))
		rb_deliver_prev(cpu_buffer, wpos);
	if (cpos == wpos)
		return;
	first = rb_sb_seq(cpu_buffer, cpos);
	/* An offset at a boundary: the sub-buffer it starts holds nothing */
	last = rb_sb_seq(cpu_buffer, wpos) - !(wpos & rb_sb_mask(cpu_buffer));
	skip = last - first + 1 > g->nr_subbufs ?
		last - first + 1 - g->nr_subbufs : 0;

	for (seq = first, pos = cpos; seq <= last;
	     seq++, pos = rb_next_sbs(cpu_buffer, pos)) {
		unsigned long idx = rb_idx(cpu_buffer, pos);
		struct rb_sb_meta *m = &cpu_buffer->meta[idx];
		struct rb_sb_hot *h = &cpu_buffer->hot[idx];
		struct buffer_data_page *src = rb_id_page(cpu_buffer, h->id);
		unsigned long gen = rb_gen(cpu_buffer, pos);
		bool done = rb_gen_delivered(cpu_buffer, idx, gen);
		unsigned long nrec, len, taken = 0;
		struct rb_sb_hot *nh = &g->hot[co->nr];
		struct rb_sb_meta *nm;

		if (done)
			nrec = m->nrec;
		else
			nrec = ((local_read(&h->cc) >> RB_CC_REC_SHIFT) - m->rc_base) &
				RB_CC_REC_MASK;
		if (seq == first)
			taken = cword & RB_K_MASK;		/* records consumed of it */
		if (seq < first + skip) {
			co->lost += nrec - taken;
			continue;
		}
		len = done ? (local_read(&src->commit) & RB_COMMIT_MASK) +
			BUF_PAGE_HDR_SIZE : wpos - (wpos & ~rb_sb_mask(cpu_buffer));
		memcpy(g->pages[co->nr], src, len);
		nm = &g->meta[co->nr];
		nm->drop_mark = m->drop_mark;
		if (done) {
			local_set(&nh->cc, rb_sb_size(cpu_buffer) |
				  (nrec << RB_CC_REC_SHIFT));
			nm->cc_sb = local_read(&nh->cc);
			nm->rc_base = nrec;
			nm->nrec = nrec;
			co->full++;
		} else {
			local_set(&nh->cc, len | (nrec << RB_CC_REC_SHIFT));
		}
		if (seq == first)
			co->consumed = ((cpos & rb_sb_mask(cpu_buffer)) << RB_K_BITS) | taken;
		/* After a delivered one the writers start the next one */
		co->offset = (co->nr << cpu_buffer->sb_shift) +
			(done ? rb_sb_size(cpu_buffer) : len);
		co->ts = rb_ts_at(g->pages[co->nr], len, &at);
		co->nr++;
	}
}

/* After rb_set_geom(): the state of the ring that rb_carry_over() filled. */
static void rb_carry_set(struct ring_buffer_per_cpu *cpu_buffer,
			 struct rb_carry *co)
{
	unsigned long i, pos;

	for (i = 0; i < co->full; i++)
		cpu_buffer->hot[i].id = RB_ID(i, 1, 0);
	local_set(&cpu_buffer->offset, co->offset);
	cpu_buffer->consumed = co->consumed;
	/* The next record's delta is to the last one carried */
	cpu_buffer->lts_hint = co->ts;
	cpu_buffer->lts = co->nr ? (unsigned long)(co->ts << 32) | (u32)co->offset : 0;
	memset(cpu_buffer->wctx, 0, sizeof(cpu_buffer->wctx));
	local_add(co->lost, &cpu_buffer->overrun);
	/*
	 * rb_iter_fetch() reads the records in the reader's page at
	 * positions r_sbs + offset: r_sbs is a sub-buffer start, and those
	 * positions come before the ring's.  A reader that took part of the
	 * sub-buffer the ring now starts with holds its first bytes, up to
	 * the consumed position: the iterator goes on from there into the
	 * ring with the same time.  Other pages go in the sub-buffer before.
	 */
	pos = rb_cpos(co->consumed, co->offset);
	cpu_buffer->r_sbs = pos & ~rb_sb_mask(cpu_buffer);
	if (cpu_buffer->r_end != (pos & rb_sb_mask(cpu_buffer)))
		cpu_buffer->r_sbs -= rb_sb_size(cpu_buffer);
	cpu_buffer->r_next = pos;
	cpu_buffer->r_from = pos;
}

/*
 * A resize or a change of the sub-buffer size: an empty geometry per CPU
 * to allocate into, with the buffer's mutex and the CPU hotplug lock held
 * (CPU buffers come and go only with their geometry).
 */
static struct rb_geom *rb_geoms_begin(struct trace_buffer *buffer)
{
	struct rb_geom *geoms;

	geoms = kcalloc(nr_cpu_ids, sizeof(*geoms), GFP_KERNEL);
	if (!geoms)
		return NULL;
	mutex_lock(&buffer->mutex);
	atomic_inc(&buffer->resizing);
	cpus_read_lock();
	return geoms;
}

/* The end of it: free the geometries left (new ones unused, old ones). */
static int rb_geoms_end(struct trace_buffer *buffer, struct rb_geom *geoms,
			int err)
{
	int cpu;

	for_each_buffer_cpu(buffer, cpu) {
		if (geoms[cpu].pages)
			rb_free_geom(&geoms[cpu]);
	}
	cpus_read_unlock();
	atomic_dec(&buffer->resizing);
	mutex_unlock(&buffer->mutex);
	kfree(geoms);
	return err;
}

/**
 * ring_buffer_resize - resize the ring buffer
 * @buffer: the buffer to resize.
 * @size: the new size in bytes of data per CPU.
 * @cpu_id: the cpu buffer to resize, or RING_BUFFER_ALL_CPUS
 *
 * The size is rounded up to whole sub-buffers, as the page-based buffer
 * rounds it up to whole pages.  The new memory is allocated before
 * anything changes.  The records not read yet are kept, the newest ones
 * when they do not all fit (the others count as overrun); writers are
 * held off while the records are copied.
 *
 * Return: 0 on success and < 0 on failure.
 */
int ring_buffer_resize(struct trace_buffer *buffer, unsigned long size,
		       int cpu_id)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_geom *geoms;
	unsigned long nr, flags;
	int cpu, err = 0;

	if (!buffer)
		return 0;
	if (cpu_id != RING_BUFFER_ALL_CPUS &&
	    !cpumask_test_cpu(cpu_id, buffer->cpumask))
		return 0;

	/* More than the machine has: -ENOMEM, as from the page-based buffer */
	if ((long)(size >> PAGE_SHIFT) > si_mem_available())
		return -ENOMEM;

	geoms = rb_geoms_begin(buffer);
	if (!geoms)
		return -ENOMEM;

	nr = rb_size_to_nr(size, buffer->subbuf_order);
	if (!nr) {
		err = -EINVAL;
		goto out_free;
	}
	for_each_buffer_cpu(buffer, cpu) {
		if (cpu_id != RING_BUFFER_ALL_CPUS && cpu != cpu_id)
			continue;
		if (buffer->buffers[cpu]->nr_subbufs == nr)
			continue;
		/* An iterator is reading it (the "trace" file is open) */
		if (atomic_read(&buffer->buffers[cpu]->resize_disabled)) {
			err = -EBUSY;
			goto out_free;
		}
		err = rb_alloc_geom(&geoms[cpu], nr, buffer->subbuf_order, cpu);
		if (err)
			goto out_free;
	}

	for_each_buffer_cpu(buffer, cpu) {
		if (geoms[cpu].pages)
			rb_quiesce_begin(buffer->buffers[cpu]);
	}
	/* Writers run with preemption off: none is left after this */
	synchronize_rcu();
	for_each_buffer_cpu(buffer, cpu) {
		struct rb_carry co;
		struct rb_geom old;

		if (!geoms[cpu].pages)
			continue;
		cpu_buffer = buffer->buffers[cpu];
		rb_ring_move_begin(cpu_buffer, &flags);
		rb_carry_over(cpu_buffer, &geoms[cpu], &co);
		rb_get_geom(cpu_buffer, &old);
		rb_set_geom(cpu_buffer, &geoms[cpu], true);
		rb_carry_set(cpu_buffer, &co);
		rb_ring_move_end(cpu_buffer, flags);
		geoms[cpu] = old;
		rb_quiesce_end(cpu_buffer);
	}
 out_free:
	return rb_geoms_end(buffer, geoms, err);
}
EXPORT_SYMBOL_GPL(ring_buffer_resize);

/**
 * ring_buffer_subbuf_order_get - the size of the sub-buffers, as an order
 * @buffer: the buffer
 *
 * Return: log2 of the pages per sub-buffer, or -EINVAL without a buffer.
 */
int ring_buffer_subbuf_order_get(struct trace_buffer *buffer)
{
	if (!buffer)
		return -EINVAL;
	return READ_ONCE(buffer->subbuf_order);
}
EXPORT_SYMBOL_GPL(ring_buffer_subbuf_order_get);

/**
 * ring_buffer_subbuf_size_get - the size of a sub-buffer, header included
 * @buffer: the buffer
 *
 * This is the size of a page that ring_buffer_read_page() fills.
 *
 * Return: the size in bytes.
 */
int ring_buffer_subbuf_size_get(struct trace_buffer *buffer)
{
	return PAGE_SIZE << READ_ONCE(buffer->subbuf_order);
}
EXPORT_SYMBOL_GPL(ring_buffer_subbuf_size_get);

/**
 * ring_buffer_max_event_size - the largest payload a reservation takes
 * @buffer: the buffer
 *
 * A record this long fills a sub-buffer on its own (first of its
 * sub-buffer, it needs no time record, also in absolute-time mode).
 *
 * Return: the size in bytes.
 */
u32 ring_buffer_max_event_size(struct trace_buffer *buffer)
{
	return rb_order_data_size(READ_ONCE(buffer->subbuf_order)) -
		sizeof(u32) * 2;
}
EXPORT_SYMBOL_GPL(ring_buffer_max_event_size);

/**
 * ring_buffer_subbuf_order_set - set the size of the sub-buffers
 * @buffer: the buffer to change
 * @order: log2 of the pages per sub-buffer, 0 to RB_SB_MAX_ORDER (7)
 *
 * Every CPU buffer gets sub-buffers of the new size, as many as keep its
 * size in bytes (rounded up to whole sub-buffers, at least two).  The
 * records in the buffer are discarded and its counters start over, as in
 * mainline.  The new memory is allocated before anything changes: on
 * failure the buffer is as it was.  The pages of the old size, the
 * readers' included, are freed here: the caller keeps consuming readers
 * out while this runs (tracing holds trace_access_lock() for all CPUs),
 * and an open iterator makes it fail with -EBUSY, as a resize does.
 * Pages a reader got from ring_buffer_alloc_read_page() before stay its
 * own; ring_buffer_read_page() refuses them.
 *
 * Return: 0 on success and < 0 on failure.
 */
int ring_buffer_subbuf_order_set(struct trace_buffer *buffer, int order)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	struct rb_geom *geoms;
	unsigned long nr, flags;
	int cpu, err = 0;

	if (!buffer || order < 0 || order > RB_SB_MAX_ORDER)
		return -EINVAL;

	geoms = rb_geoms_begin(buffer);
	if (!geoms)
		return -ENOMEM;

	if (order == buffer->subbuf_order)
		goto out_free;
	for_each_buffer_cpu(buffer, cpu) {
		cpu_buffer = buffer->buffers[cpu];
		if (atomic_read(&cpu_buffer->resize_disabled)) {
			err = -EBUSY;
			goto out_free;
		}
		nr = rb_size_to_nr(rb_data_size(cpu_buffer) * cpu_buffer->nr_subbufs,
				   order);
		err = nr ? rb_alloc_geom(&geoms[cpu], nr, order, cpu) : -EINVAL;
		if (err)
			goto out_free;
	}

	for_each_buffer_cpu(buffer, cpu)
		rb_quiesce_begin(buffer->buffers[cpu]);
	/* Writers run with preemption off: none is left after this */
	synchronize_rcu();
	for_each_buffer_cpu(buffer, cpu) {
		struct buffer_data_page *spare;
		struct rb_geom old;

		cpu_buffer = buffer->buffers[cpu];
		rb_ring_move_begin(cpu_buffer, &flags);
		rb_get_geom(cpu_buffer, &old);
		rb_set_geom(cpu_buffer, &geoms[cpu], false);
		rb_test_hook(cpu_buffer, RB_TEST_GEOMETRY);
		rb_reset_cpu(cpu_buffer);
		spare = cpu_buffer->free_page;
		cpu_buffer->free_page = NULL;
		rb_ring_move_end(cpu_buffer, flags);
		rb_free_sb_page(spare);
		geoms[cpu] = old;
	}
	WRITE_ONCE(buffer->subbuf_order, order);
	for_each_buffer_cpu(buffer, cpu)
		rb_quiesce_end(buffer->buffers[cpu]);
 out_free:
	return rb_geoms_end(buffer, geoms, err);
}
EXPORT_SYMBOL_GPL(ring_buffer_subbuf_order_set);

/**
 * ring_buffer_change_overwrite - choose flight-recorder or discard mode
 * @buffer: the buffer
 * @val: nonzero to overwrite the oldest records when full, 0 to drop new
 *	records instead
 *
 * Writers see the new mode at their next reservation.
 */
void ring_buffer_change_overwrite(struct trace_buffer *buffer, int val)
{
	mutex_lock(&buffer->mutex);
	if (val)
		buffer->flags |= RB_FL_OVERWRITE;
	else
		buffer->flags &= ~RB_FL_OVERWRITE;
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(ring_buffer_change_overwrite);

static void rb_reset_quiesced(struct ring_buffer_per_cpu *cpu_buffer)
{
	unsigned long flags;

	rb_ring_move_begin(cpu_buffer, &flags);
	rb_reset_cpu(cpu_buffer);
	rb_ring_move_end(cpu_buffer, flags);
}

/**
 * ring_buffer_reset_cpu - empty one CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer to empty
 *
 * Stops the writers of @cpu, waits for those inside (synchronize_rcu()),
 * drops every record and clears the counters.  Iterators open on @cpu
 * start over and report a drop.  May sleep.
 */
void ring_buffer_reset_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return;
	cpu_buffer = buffer->buffers[cpu];

	/* prevent another thread from changing buffer sizes */
	mutex_lock(&buffer->mutex);
	rb_quiesce_begin(cpu_buffer);
	synchronize_rcu();
	rb_reset_quiesced(cpu_buffer);
	rb_quiesce_end(cpu_buffer);
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(ring_buffer_reset_cpu);

/*
 * Reset the CPU buffers this call quiesced, and only those: a CPU that
 * comes online (or gets its buffer) during the grace period was not
 * quiesced and has writers, and one that goes offline was quiesced and
 * must be let go again (mainline's RESET_BIT in resize_disabled does the
 * same).  The mark is only touched under buffer->mutex.
 */
static void rb_reset_cpus(struct trace_buffer *buffer, bool online)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	int cpu;

	mutex_lock(&buffer->mutex);
	for_each_buffer_cpu(buffer, cpu) {
		if (online && !cpu_online(cpu))
			continue;
		cpu_buffer = buffer->buffers[cpu];
		cpu_buffer->reset_quiesced = true;
		rb_quiesce_begin(cpu_buffer);
	}
	synchronize_rcu();
	for_each_buffer_cpu(buffer, cpu) {
		cpu_buffer = buffer->buffers[cpu];
		if (!cpu_buffer->reset_quiesced)
			continue;
		cpu_buffer->reset_quiesced = false;
		rb_reset_quiesced(cpu_buffer);
		rb_quiesce_end(cpu_buffer);
	}
	mutex_unlock(&buffer->mutex);
}

/**
 * ring_buffer_reset_online_cpus - empty the buffers of the online CPUs
 * @buffer: the buffer
 *
 * As ring_buffer_reset_cpu() for each online CPU, with one grace period
 * for all of them.  May sleep.
 */
void ring_buffer_reset_online_cpus(struct trace_buffer *buffer)
{
	rb_reset_cpus(buffer, true);
}

/**
 * ring_buffer_reset - empty every CPU buffer
 * @buffer: the buffer
 *
 * As ring_buffer_reset_cpu() for each CPU, with one grace period for all
 * of them.  May sleep.
 */
void ring_buffer_reset(struct trace_buffer *buffer)
{
	rb_reset_cpus(buffer, false);
}
EXPORT_SYMBOL_GPL(ring_buffer_reset);

#ifdef CONFIG_RING_BUFFER_ALLOW_SWAP
/**
 * ring_buffer_swap_cpu - swap a CPU buffer between two ring buffers
 * @buffer_a: One buffer to swap with
 * @buffer_b: The other buffer to swap with
 * @cpu: the CPU of the buffers to swap
 *
 * Called with the writers of @cpu stopped, normally from that CPU.
 *
 * Return: 0 on success; -EINVAL if either buffer has no buffer for @cpu
 * or their sizes differ; -EAGAIN if recording is disabled on either;
 * -EBUSY if a write on @cpu or a resize of either buffer is in progress.
 */
int ring_buffer_swap_cpu(struct trace_buffer *buffer_a,
			 struct trace_buffer *buffer_b, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer_a;
	struct ring_buffer_per_cpu *cpu_buffer_b;
	int ret = -EBUSY;

	if (!cpumask_test_cpu(cpu, buffer_a->cpumask) ||
	    !cpumask_test_cpu(cpu, buffer_b->cpumask))
		return -EINVAL;

	cpu_buffer_a = buffer_a->buffers[cpu];
	cpu_buffer_b = buffer_b->buffers[cpu];

	/* At least make sure the two buffers are somewhat the same */
	if (cpu_buffer_a->nr_subbufs != cpu_buffer_b->nr_subbufs ||
	    cpu_buffer_a->sb_shift != cpu_buffer_b->sb_shift)
		return -EINVAL;

	if (atomic_read(&buffer_a->record_disabled) ||
	    atomic_read(&buffer_b->record_disabled) ||
	    atomic_read(&cpu_buffer_a->record_disabled) ||
	    atomic_read(&cpu_buffer_b->record_disabled))
		return -EAGAIN;

	/*
	 * No synchronize_rcu() here: this may be called in atomic context,
	 * normally on @cpu itself; otherwise the caller must protect it.
	 */
	atomic_inc(&cpu_buffer_a->record_disabled);
	atomic_inc(&cpu_buffer_b->record_disabled);

	/* Do not swap if either buffer is in the process of writing */
	if (cpu_buffer_a->current_context || cpu_buffer_b->current_context)
		goto out_dec;
	if (atomic_read(&buffer_a->resizing) || atomic_read(&buffer_b->resizing))
		goto out_dec;

	/* Checked by ring_buffer_lock_reserve() after current_context is set */
	buffer_a->buffers[cpu] = cpu_buffer_b;
	buffer_b->buffers[cpu] = cpu_buffer_a;

	WRITE_ONCE(cpu_buffer_b->buffer, buffer_a);
	WRITE_ONCE(cpu_buffer_a->buffer, buffer_b);

	ret = 0;
 out_dec:
	atomic_dec(&cpu_buffer_a->record_disabled);
	atomic_dec(&cpu_buffer_b->record_disabled);
	return ret;
}
EXPORT_SYMBOL_GPL(ring_buffer_swap_cpu);
#endif /* CONFIG_RING_BUFFER_ALLOW_SWAP */

/* ------------------------------------------------------------------ */
/* Recording on/off, statistics                                        */
/* ------------------------------------------------------------------ */

/**
 * ring_buffer_record_disable - stop writes to the buffer
 * @buffer: the buffer
 *
 * Nests: each call needs a ring_buffer_record_enable().  Writers already
 * past the check complete their record; callers that must wait for them
 * follow with synchronize_rcu().
 */
void ring_buffer_record_disable(struct trace_buffer *buffer)
{
	atomic_inc(&buffer->record_disabled);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_disable);

/**
 * ring_buffer_record_enable - allow writes again
 * @buffer: the buffer
 *
 * Undoes one ring_buffer_record_disable().
 */
void ring_buffer_record_enable(struct trace_buffer *buffer)
{
	atomic_dec(&buffer->record_disabled);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_enable);

/**
 * ring_buffer_record_off - switch writes to the buffer off
 * @buffer: the buffer
 *
 * Unlike ring_buffer_record_disable() this does not nest: one
 * ring_buffer_record_on() undoes any number of calls (tracing_off()).
 */
void ring_buffer_record_off(struct trace_buffer *buffer)
{
	unsigned int rd;
	unsigned int new_rd;

	do {
		rd = atomic_read(&buffer->record_disabled);
		new_rd = rd | RB_BUFFER_OFF;
	} while (atomic_cmpxchg(&buffer->record_disabled, rd, new_rd) != rd);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_off);

/**
 * ring_buffer_record_on - switch writes to the buffer back on
 * @buffer: the buffer
 *
 * Undoes ring_buffer_record_off().  Writes stay disabled while a
 * ring_buffer_record_disable() is outstanding.
 */
void ring_buffer_record_on(struct trace_buffer *buffer)
{
	unsigned int rd;
	unsigned int new_rd;

	do {
		rd = atomic_read(&buffer->record_disabled);
		new_rd = rd & ~RB_BUFFER_OFF;
	} while (atomic_cmpxchg(&buffer->record_disabled, rd, new_rd) != rd);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_on);

/**
 * ring_buffer_record_is_on - whether writes to the buffer are allowed
 * @buffer: the buffer
 *
 * Return: true when neither ring_buffer_record_off() nor
 * ring_buffer_record_disable() is in effect.
 */
bool ring_buffer_record_is_on(struct trace_buffer *buffer)
{
	return !atomic_read(&buffer->record_disabled);
}

/**
 * ring_buffer_record_is_set_on - whether the buffer is switched on
 * @buffer: the buffer
 *
 * Return: true unless ring_buffer_record_off() is in effect, whatever
 * ring_buffer_record_disable() says: the state tracing_on shows.
 */
bool ring_buffer_record_is_set_on(struct trace_buffer *buffer)
{
	return !(atomic_read(&buffer->record_disabled) & RB_BUFFER_OFF);
}

/**
 * ring_buffer_record_disable_cpu - stop writes to one CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Nests as ring_buffer_record_disable() does.
 */
void ring_buffer_record_disable_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return;
	atomic_inc(&buffer->buffers[cpu]->record_disabled);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_disable_cpu);

/**
 * ring_buffer_record_enable_cpu - allow writes to one CPU buffer again
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Undoes one ring_buffer_record_disable_cpu().
 */
void ring_buffer_record_enable_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return;
	atomic_dec(&buffer->buffers[cpu]->record_disabled);
}
EXPORT_SYMBOL_GPL(ring_buffer_record_enable_cpu);

/**
 * ring_buffer_size - the size of one CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the bytes of data the sub-buffers of @cpu hold (headers not
 * counted), or 0 if @cpu has no buffer.
 */
unsigned long ring_buffer_size(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return rb_data_size(buffer->buffers[cpu]) * buffer->buffers[cpu]->nr_subbufs;
}
EXPORT_SYMBOL_GPL(ring_buffer_size);

size_t ring_buffer_nr_pages(struct trace_buffer *buffer, int cpu)
{
	return buffer->buffers[cpu]->nr_subbufs;
}

size_t ring_buffer_nr_dirty_pages(struct trace_buffer *buffer, int cpu)
{
	return rb_dirty(buffer->buffers[cpu]);
}

/**
 * ring_buffer_empty_cpu - whether a CPU buffer has nothing to read
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Agrees with ring_buffer_peek(): false exactly when a peek would return
 * a record (records committed but not readable yet, behind a reservation
 * still open, count as empty).
 *
 * Return: true if there is nothing to read.
 */
bool ring_buffer_empty_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long flags;
	bool locked, ret;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return true;

	cpu_buffer = buffer->buffers[cpu];
	locked = rb_reader_lock(cpu_buffer, &flags);
	ret = !rb_readable(cpu_buffer);
	rb_reader_unlock(cpu_buffer, flags, locked);
	return ret;
}
EXPORT_SYMBOL_GPL(ring_buffer_empty_cpu);

/**
 * ring_buffer_empty - whether no CPU buffer has anything to read
 * @buffer: the buffer
 *
 * Return: true if ring_buffer_empty_cpu() is true for every CPU.
 */
bool ring_buffer_empty(struct trace_buffer *buffer)
{
	int cpu;

	for_each_buffer_cpu(buffer, cpu) {
		if (!ring_buffer_empty_cpu(buffer, cpu))
			return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(ring_buffer_empty);

/**
 * ring_buffer_oldest_event_ts - the time of the oldest data in a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * The time of the next record the reader returns if it has one in its
 * sub-buffer, else the time stamp of the oldest sub-buffer not read.
 *
 * Return: that time, or 0 if the buffer is empty or @cpu has none.
 */
u64 ring_buffer_oldest_event_ts(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long flags, wpos, pos;
	u64 ret = 0;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;

	cpu_buffer = buffer->buffers[cpu];
	rb_reader_lock_irqsave(cpu_buffer, &flags);
	if (cpu_buffer->r_head < cpu_buffer->r_end) {
		ret = cpu_buffer->r_ts;
	} else {
		wpos = rb_read_offset(cpu_buffer);
		pos = rb_cpos(READ_ONCE(cpu_buffer->consumed), wpos);
		if (pos != wpos) {
			unsigned long id;

			id = READ_ONCE(cpu_buffer->hot[rb_idx(cpu_buffer, pos)].id);
			ret = READ_ONCE(rb_id_page(cpu_buffer, id)->time_stamp);
		}
	}
	rb_reader_unlock_irqrestore(cpu_buffer, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(ring_buffer_oldest_event_ts);

/**
 * ring_buffer_bytes_cpu - the bytes of data not read in a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Records and padding from the reader's position to the writers', the
 * sub-buffer headers not counted, as the page-based buffer counts its
 * entries_bytes, and the records the reader has taken into its page but
 * not returned yet: records leave the count as they are read, as they do
 * on the page-based buffer.
 *
 * Return: the number of bytes.
 */
unsigned long ring_buffer_bytes_cpu(struct trace_buffer *buffer, int cpu)
{
	struct ring_buffer_per_cpu *cpu_buffer;
	unsigned long wpos, cpos, sbs, hdrs, mask, head, end;

	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	cpu_buffer = buffer->buffers[cpu];
	mask = rb_sb_mask(cpu_buffer);
	wpos = rb_read_offset(cpu_buffer);
	cpos = rb_cpos(READ_ONCE(cpu_buffer->consumed), wpos);
	/*
	 * Not wpos - cpos: the unused indexes between generations hold nothing.
	 * Records and padding, without the sub-buffer headers, as the
	 * page-based buffer counts its entries_bytes.
	 */
	sbs = rb_sb_seq(cpu_buffer, wpos) - rb_sb_seq(cpu_buffer, cpos);
	hdrs = sbs + !!(wpos & mask) - !!(cpos & mask);
	/*
	 * The reader's page, read without the reader lock as the page-based
	 * buffer reads its read_bytes: a reader moving on meanwhile can pair
	 * one page's head with another's end, so take only a difference
	 * that fits in a sub-buffer.
	 */
	head = READ_ONCE(cpu_buffer->r_head);
	end = READ_ONCE(cpu_buffer->r_end);
	if (head >= end || end - head > rb_sb_size(cpu_buffer))
		end = head;
	return sbs * rb_sb_size(cpu_buffer) + (wpos & mask) - (cpos & mask) -
		hdrs * BUF_PAGE_HDR_SIZE + end - head;
}
EXPORT_SYMBOL_GPL(ring_buffer_bytes_cpu);

/*
 * Records in the buffer: committed, less those overwritten and those read.
 * O(1) and touching only the per-CPU counters, so that it is safe against
 * a resize (which replaces the per-sub-buffer arrays) and cheap for splice,
 * which asks for it once per page it moves.
 */
static unsigned long rb_num_of_entries(struct ring_buffer_per_cpu *cpu_buffer)
{
	return local_read(&cpu_buffer->entries) -
		(local_read(&cpu_buffer->overrun) + READ_ONCE(cpu_buffer->read));
}

/**
 * ring_buffer_entries_cpu - the records in a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the records committed and not yet overwritten or read.
 */
unsigned long ring_buffer_entries_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return rb_num_of_entries(buffer->buffers[cpu]);
}
EXPORT_SYMBOL_GPL(ring_buffer_entries_cpu);

/**
 * ring_buffer_overrun_cpu - the records overwritten in a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the records lost before a reader got them: overwritten in
 * flight-recorder mode, or left out when a resize shrank the buffer.
 */
unsigned long ring_buffer_overrun_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return local_read(&buffer->buffers[cpu]->overrun);
}
EXPORT_SYMBOL_GPL(ring_buffer_overrun_cpu);

/**
 * ring_buffer_commit_overrun_cpu - the writes lost to open reservations
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the writes that failed because the sub-buffer they needed next
 * still held a reservation not committed: nested writers (interrupts,
 * NMIs) went round the whole buffer inside one write.
 */
unsigned long
ring_buffer_commit_overrun_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return local_read(&buffer->buffers[cpu]->commit_overrun);
}
EXPORT_SYMBOL_GPL(ring_buffer_commit_overrun_cpu);

/**
 * ring_buffer_dropped_events_cpu - the writes dropped in discard mode
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the writes that failed because the buffer was full and
 * overwriting was off.
 */
unsigned long
ring_buffer_dropped_events_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return local_read(&buffer->buffers[cpu]->dropped_events);
}
EXPORT_SYMBOL_GPL(ring_buffer_dropped_events_cpu);

/**
 * ring_buffer_read_events_cpu - the records read from a CPU buffer
 * @buffer: the buffer
 * @cpu: the CPU buffer
 *
 * Return: the records consumed by readers (ring_buffer_consume() and
 * ring_buffer_read_page()) since the last reset.
 */
unsigned long
ring_buffer_read_events_cpu(struct trace_buffer *buffer, int cpu)
{
	if (!cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;
	return READ_ONCE(buffer->buffers[cpu]->read);
}
EXPORT_SYMBOL_GPL(ring_buffer_read_events_cpu);

/**
 * ring_buffer_entries - the records in the buffer
 * @buffer: the buffer
 *
 * Return: the sum of ring_buffer_entries_cpu() over the CPUs.
 */
unsigned long ring_buffer_entries(struct trace_buffer *buffer)
{
	unsigned long entries = 0;
	int cpu;

	for_each_buffer_cpu(buffer, cpu)
		entries += rb_num_of_entries(buffer->buffers[cpu]);
	return entries;
}
EXPORT_SYMBOL_GPL(ring_buffer_entries);

/**
 * ring_buffer_overruns - the records overwritten in the buffer
 * @buffer: the buffer
 *
 * Return: the sum of ring_buffer_overrun_cpu() over the CPUs.
 */
unsigned long ring_buffer_overruns(struct trace_buffer *buffer)
{
	unsigned long overruns = 0;
	int cpu;

	for_each_buffer_cpu(buffer, cpu)
		overruns += local_read(&buffer->buffers[cpu]->overrun);
	return overruns;
}
EXPORT_SYMBOL_GPL(ring_buffer_overruns);

int ring_buffer_print_entry_header(struct trace_seq *s)
{
	trace_seq_puts(s, "# compressed entry header\n");
	trace_seq_puts(s, "\ttype_len    :    5 bits\n");
	trace_seq_puts(s, "\ttime_delta  :   27 bits\n");
	trace_seq_puts(s, "\tarray       :   32 bits\n");
	trace_seq_putc(s, '\n');
	trace_seq_printf(s, "\tpadding     : type == %d\n",
			 RINGBUF_TYPE_PADDING);
	trace_seq_printf(s, "\ttime_extend : type == %d\n",
			 RINGBUF_TYPE_TIME_EXTEND);
	trace_seq_printf(s, "\ttime_stamp : type == %d\n",
			 RINGBUF_TYPE_TIME_STAMP);
	trace_seq_printf(s, "\tdata max type_len  == %d\n",
			 RINGBUF_TYPE_DATA_TYPE_LEN_MAX);

	return !trace_seq_has_overflowed(s);
}

int ring_buffer_print_page_header(struct trace_buffer *buffer,
				  struct trace_seq *s)
{
	struct buffer_data_page field;

	trace_seq_printf(s, "\tfield: u64 timestamp;\t"
			 "offset:0;\tsize:%u;\tsigned:%u;\n",
			 (unsigned int)sizeof(field.time_stamp),
			 (unsigned int)is_signed_type(u64));

	trace_seq_printf(s, "\tfield: local_t commit;\t"
			 "offset:%u;\tsize:%u;\tsigned:%u;\n",
			 (unsigned int)offsetof(typeof(field), commit),
			 (unsigned int)sizeof(field.commit),
			 (unsigned int)is_signed_type(long));

	trace_seq_printf(s, "\tfield: int overwrite;\t"
			 "offset:%u;\tsize:%u;\tsigned:%u;\n",
			 (unsigned int)offsetof(typeof(field), commit),
			 1,
			 (unsigned int)is_signed_type(long));

	trace_seq_printf(s, "\tfield: char data;\t"
			 "offset:%u;\tsize:%u;\tsigned:%u;\n",
			 (unsigned int)offsetof(typeof(field), data),
			 (unsigned int)rb_order_data_size(buffer->subbuf_order),
			 (unsigned int)is_signed_type(char));

	return !trace_seq_has_overflowed(s);
}

/* CPU hotplug: give a CPU coming up its buffer before it can trace. */
int trace_rb_cpu_prepare(unsigned int cpu, struct hlist_node *node)
{
	struct trace_buffer *buffer;
	unsigned long nr = 0;
	bool same = true;
	int cpu_i;

	buffer = container_of(node, struct trace_buffer, node);
	if (cpumask_test_cpu(cpu, buffer->cpumask))
		return 0;

	for_each_buffer_cpu(buffer, cpu_i) {
		if (!nr)
			nr = buffer->buffers[cpu_i]->nr_subbufs;
		if (nr != buffer->buffers[cpu_i]->nr_subbufs)
			same = false;
	}
	/* allocate the minimum, user can later expand it */
	if (!same || !nr)
		nr = 2;
	buffer->buffers[cpu] = rb_allocate_cpu_buffer(buffer, nr, cpu);
	if (!buffer->buffers[cpu]) {
		WARN(1, "failed to allocate ring buffer on CPU %u\n", cpu);
		return -ENOMEM;
	}
	/* The buffer before the mask bit: pairs with cpumask_test_cpu() users */
	smp_wmb();
	cpumask_set_cpu(cpu, buffer->cpumask);
	return 0;
}
