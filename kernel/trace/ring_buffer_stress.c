// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer stress test: writers of every context on every CPU, nested
 * in each other, and a concurrent reader.
 *
 * On each CPU a kthread writes records in task context; a hrtimer writes
 * in hard interrupt context and schedules a tasklet that writes in
 * softirq context; NMIs write too, where there is an NMI source (see
 * rbs_nmi_send(): on x86 the task writer sends NMIs to its own CPU, on
 * arm64 a PMU counter overflows into a pseudo-NMI at whatever instruction
 * the CPU is at).  A reader thread consumes all CPUs while
 * they write.  Each record carries its CPU, context, a sequence number
 * per CPU and context, and a payload pattern.
 *
 * In test kernels of the sub-buffer ring buffer
 * (CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS), a burst of records nested in
 * the task writer is also written, every eighth time, at each point of
 * the writers' slow path where nested writers can change what a writer
 * has read (ring_buffer_set_test_hook()): what an interrupt storm does
 * there, rarely, to a vCPU that was not run for a while.
 *
 * Every seventh record of each context is discarded
 * (ring_buffer_discard_commit()) instead of committed: given back when it
 * is the last one reserved, else left as padding.
 *
 * Checked, in flight-recorder and in discard mode: every record read is
 * intact and read once (sequence numbers strictly increase per CPU and
 * context), no discarded record is read, times never go backwards per
 * CPU (on the sub-buffer ring buffer: each record's time is exactly the
 * one its writer's reservation read, ring_buffer_event_time_stamp()), and
 * per CPU the records read plus the overrun the buffer counts equal the
 * records committed, the overrun is exactly the committed records whose
 * sequence numbers the reader never saw, and the losses reported to the
 * reader lie between the overrun and all losses counted (the page-based
 * buffer reports fewer once records are discarded: only the upper bound
 * holds there).
 *
 * A third phase, in flight-recorder mode, has the non-consuming iterator
 * in place of the reader ("trace" read with options/pause-on-trace off):
 * every record it returns must be intact and in order per context, and
 * every run of records it skips (overwritten under it) must come with
 * ring_buffer_iter_dropped().  6.1's page-based iterator skips some
 * without saying so; that is counted for it, and a failure for the
 * sub-buffer ring buffer, where the iterator must also give each record
 * the time its writer's reservation read.
 *
 * A fourth phase, in flight-recorder mode, has the iterator beside the
 * reader ("trace" read while trace_pipe or trace-cmd consumes): one
 * thread takes random turns at consuming a CPU and stepping an iterator
 * kept open on it, so that at each step of the iterator it is known
 * exactly what the reader has read.  Both take the reader lock for each
 * call, so any interleaving of two such threads' calls is one of these.
 * The reader is checked as in the first phase.  The iterator must return
 * no record twice or out of order per context and none the reader has
 * consumed, and each run of records it skips must have been read by the
 * reader or come with ring_buffer_iter_dropped().  6.1's page-based
 * iterator starts over from the reader's position after every consuming
 * read (rb_iter_reset() from rb_iter_peek()); what it returns again or
 * skips there is counted, not failed.
 *
 * Loaded with run=1 the module runs the test and fails to load if it
 * fails; the results are in the kernel log.
 *
 * Loaded with admin=1 it runs, before that, checks of the paths around
 * the writers that an ordinary reader does not take (each failed on the
 * first version of the sub-buffer ring buffer):
 *  - a reader nested in a writer of its own CPU, as ftrace_dump() is when
 *    an oops hits inside an event: it reads every record committed before
 *    the open reservation, and "empty" agrees with what it can read;
 *  - a reader in NMI while the reader lock is held under it (ftrace_dump()
 *    from a hard-lockup NMI): it ends, reading without the lock;
 *  - in test kernels of the sub-buffer ring buffer, a reader stopped
 *    where its page and positions are out of step (between the page swap
 *    and the claim of rb_get_subbuf(), in read_page's page handover):
 *    writers that push it there, and an NMI that reads there without the
 *    lock; every record is read once or counted and reported lost;
 *  - per-CPU buffer swaps (snapshot) under a writer of that CPU;
 *  - the page a reader got from ring_buffer_peek() stays the reader's,
 *    unchanged and allocated, across a reset and a resize of its CPU
 *    buffer (trace_pipe prints from it after dropping the lock).
 *  - an iterator that a consuming reader passes ("cat trace" beside
 *    trace_pipe): it goes on at the reader's next record, and reports a
 *    loss only where writers overwrote records it had not read.
 */
#define pr_fmt(fmt) "ring_buffer_stress: " fmt

#include <linux/ring_buffer.h>
#include <linux/interrupt.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/sched/clock.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/mm.h>
#if defined(CONFIG_RING_BUFFER_SUBBUF) && \
	defined(CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS)
#include "ring_buffer_subbuf.h"
#define RBS_BURSTS	1
#else
#define RBS_BURSTS	0
#endif
/* The test hook's points (enum rb_test_point), which the summary prints */
#define RBS_POINTS	6
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define RBS_NMI_APIC	1
#elif defined(CONFIG_HW_PERF_EVENTS)
#include <linux/perf_event.h>
#define RBS_NMI_PMU	1
#endif
#if defined(RBS_NMI_APIC) || defined(RBS_NMI_PMU)
#define RBS_NMI		1
#endif

static bool run;
module_param(run, bool, 0444);
MODULE_PARM_DESC(run, "run the test at load time");

static uint seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "seconds of writing per mode");

static bool admin;
module_param(admin, bool, 0444);
MODULE_PARM_DESC(admin, "check the reader paths around writers and admin operations");

static uint size_kb = 32;
module_param(size_kb, uint, 0444);
MODULE_PARM_DESC(size_kb, "buffer size per CPU (small, to force losses)");

static uint subbuf_order;
module_param(subbuf_order, uint, 0444);
MODULE_PARM_DESC(subbuf_order, "sub-buffers of 2^subbuf_order pages");

enum { CTX_TASK, CTX_SOFTIRQ, CTX_IRQ, CTX_NMI, CTX_BURST, NR_CTX };
static const char * const ctx_name[NR_CTX] = {
	"task", "softirq", "irq", "nmi", "burst"
};

/*
 * Records of a burst: more than two sub-buffers of one page; two where
 * one record is enough to change what the interrupted writer read (the
 * offset, between its cmpxchg and its time stamp word).
 */
#define RBS_BURST_RECORDS	96
#define RBS_BURST_SHORT		2

#define RBS_MAGIC	0x72627374
#define RBS_DISCARDED	0x64736364	/* magic of a discarded record */

struct rbs_rec {
	u32	magic;
	u8	ctx;
	u8	cpu;
	u16	len;
	u32	seq;
	u64	ts;		/* ring_buffer_event_time_stamp() */
	u8	fill[];
};

struct rbs_cpu {
	u32			seq[NR_CTX];		/* next to write */
	unsigned long		committed[NR_CTX];
	unsigned long		failed[NR_CTX];
	unsigned long		discarded[NR_CTX];
	bool			nmi_pending;
	bool			dump_pending;	/* admin: NMI dumps instead */
	int			open;		/* reservations open */
	unsigned long		nmi_nested;	/* NMI records committed inside them */
	bool			dump_sent;
	bool			in_burst;
	unsigned long		iterated, iter_bad;	/* iterator records */
	unsigned long		iter_passes;
	unsigned long		iter_silent;	/* skips not reported */
	/* beside the reader (RBS_BESIDE) */
	struct ring_buffer_iter	*iter;
	s64			iter_last[NR_CTX];
	bool			iter_drop[NR_CTX];	/* reported, not seen yet */
	unsigned long		iter_reported;	/* skips with a drop reported */
	unsigned long		iter_consumed;	/* skips of records read */
	unsigned long		iter_undecided;	/* older than the gaps kept */
	unsigned long		iter_again;	/* returned again or consumed */
	unsigned long		iter_restarts;
	struct rbs_gaps		*gaps;
	unsigned long		points[RBS_POINTS];	/* test hook calls, by point */
	unsigned long		bursts[RBS_POINTS];	/* bursts run there */
	struct hrtimer		timer;
	struct tasklet_struct	tasklet;
	struct task_struct	*thread;
	/* reader side */
	s64			last_seq[NR_CTX];
	unsigned long		read, lost, bad;
	unsigned long		missing;	/* committed, never read */
	u64			last_ts;
	unsigned long		passes;		/* of the reader over the CPU */
	unsigned long		passes_stuck;	/* not empty, nothing read */
};

/*
 * The reader's last runs of records it never read, per context: what an
 * iterator beside it may skip only with a drop reported.
 */
#define RBS_GAPS	256

struct rbs_gap {
	u32	from, to;	/* sequence numbers, both included */
};

struct rbs_gaps {
	unsigned int	nr[NR_CTX];	/* recorded since the phase began */
	struct rbs_gap	gap[NR_CTX][RBS_GAPS];
};

static DEFINE_PER_CPU(struct rbs_cpu, rbs);
static struct trace_buffer *buffer;
static bool stop_writing;
static int failures;
/* Whether NMIs come (rbs_nmi_init()); the NMI checks skip if not */
static bool rbs_nmi;

#define rbs_fail(fmt, ...)						\
	do {								\
		if (failures++ < 20)					\
			pr_err("FAIL: " fmt, ##__VA_ARGS__);		\
	} while (0)

static void rbs_send_nmi(struct rbs_cpu *c);

/* @nest_nmi: send an NMI to this CPU and wait for it inside the reservation */
static void rbs_write(int ctx, bool nest_nmi)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs);
	struct ring_buffer_event *event;
	struct rbs_rec *r;
	bool nested;
	u16 len, i;
	u32 seq;

	seq = c->seq[ctx];
	len = (seq * 13 + ctx * 7) % 150;
	event = ring_buffer_lock_reserve(buffer, sizeof(*r) + len);
	if (!event) {
		c->failed[ctx]++;
		return;
	}
	nested = c->open++;
	r = ring_buffer_event_data(event);
	r->magic = seq % 7 == 3 ? RBS_DISCARDED : RBS_MAGIC;
#ifdef CONFIG_RING_BUFFER_SUBBUF
	/* Exported by the sub-buffer ring buffer only */
	r->ts = ring_buffer_event_time_stamp(buffer, event);
#endif
	r->ctx = ctx;
	r->cpu = smp_processor_id();
	r->len = len;
	r->seq = seq;
	for (i = 0; i < len; i++)
		r->fill[i] = (u8)(seq + i);
	if (nest_nmi) {
		int spin = 10000;

		rbs_send_nmi(c);
		while (READ_ONCE(c->nmi_pending) && --spin)
			cpu_relax();
	}
	c->seq[ctx] = seq + 1;
	c->open--;
	if (r->magic == RBS_DISCARDED) {
		ring_buffer_discard_commit(buffer, event);
		c->discarded[ctx]++;
		return;
	}
	ring_buffer_unlock_commit(buffer, event);
	c->committed[ctx]++;
	if (ctx == CTX_NMI && nested)
		c->nmi_nested++;
}

#ifdef RBS_NMI
/* The read an admin check's NMI makes (dump_pending), instead of a write */
static void (*rbs_nmi_dump_fn)(struct rbs_cpu *c);

/*
 * What an NMI on this CPU does: the read an admin check asked for, else a
 * record if one was asked for or @write.  False if it did nothing.
 */
static bool rbs_nmi_serve(struct rbs_cpu *c, bool write)
{
	if (READ_ONCE(c->dump_pending)) {
		rbs_nmi_dump_fn(c);
		WRITE_ONCE(c->dump_pending, false);
		return true;
	}
	if (!write && !READ_ONCE(c->nmi_pending))
		return false;
	rbs_write(CTX_NMI, false);
	WRITE_ONCE(c->nmi_pending, false);
	return true;
}
#endif

/*
 * The NMI source.  On x86 the local APIC sends an NMI to a CPU, which
 * takes it before the sender's next instruction when it sent it to
 * itself.  Elsewhere a PMU whose overflow interrupt is an NMI serves
 * (arm64 with irqchip.gicv3_pseudo_nmi=1, which lets it in where
 * interrupts are off): a cycle counter on every CPU overflows every
 * RBS_PMU_PERIOD cycles, at whatever instruction that CPU is at, and an
 * NMI sent is a request (nmi_pending, dump_pending) that the next
 * overflow on that CPU serves.  While a test phase writes, each overflow
 * also writes a record when nothing was asked (rbs_pmu_writes), so that
 * NMI records land anywhere in the other writers, not only where the
 * task writer waits for one.  Without either source, or with a PMU whose
 * overflow does not come as an NMI, rbs_nmi stays false.
 */
#ifdef RBS_NMI_APIC
/* A self-NMI comes at the next instruction (see rbs_dump_kicker()) */
static const bool rbs_nmi_at_once = true;

static int rbs_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	return rbs_nmi_serve(this_cpu_ptr(&rbs), false) ? NMI_HANDLED : NMI_DONE;
}

static void rbs_nmi_send(int cpu)
{
	if (cpu == smp_processor_id())
		apic->send_IPI_self(NMI_VECTOR);
	else
		apic->send_IPI(cpu, NMI_VECTOR);
}

/* An NMI handler the module cannot register fails its load */
static int rbs_nmi_init(void)
{
	int ret = register_nmi_handler(NMI_LOCAL, rbs_nmi_handler, 0, "rbs");

	rbs_nmi = !ret;
	return ret;
}

static void rbs_nmi_exit(void)
{
	if (rbs_nmi)
		unregister_nmi_handler(NMI_LOCAL, "rbs");
}

static void rbs_pmu_writing(bool on) { }
#elif defined(RBS_NMI_PMU)
/* 100 us at the 1 GHz of QEMU's emulated cycle counter, less on hardware */
#define RBS_PMU_PERIOD	100000

static const bool rbs_nmi_at_once;

static DEFINE_PER_CPU(struct perf_event *, rbs_pmu_event);
static DEFINE_PER_CPU(unsigned long, rbs_pmu_nmis);
static bool rbs_pmu_writes, rbs_pmu_not_nmi;

static void rbs_pmu_overflow(struct perf_event *event,
			     struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs);

	if (!in_nmi()) {
		WRITE_ONCE(rbs_pmu_not_nmi, true);
		return;
	}
	this_cpu_inc(rbs_pmu_nmis);
	/* Records only while a phase writes: a request may outlive it */
	if (READ_ONCE(rbs_pmu_writes))
		rbs_nmi_serve(c, true);
	else if (READ_ONCE(c->dump_pending))
		rbs_nmi_serve(c, false);
}

/* The next overflow on @cpu serves the request */
static void rbs_nmi_send(int cpu) { }

static void rbs_nmi_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_event *event = per_cpu(rbs_pmu_event, cpu);

		if (event)
			perf_event_release_kernel(event);
		per_cpu(rbs_pmu_event, cpu) = NULL;
	}
	rbs_nmi = false;
}

/* A counter on every online CPU, kept if each one's overflow is an NMI */
static int rbs_nmi_init(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.config		= PERF_COUNT_HW_CPU_CYCLES,
		.size		= sizeof(attr),
		.pinned		= 1,
		.sample_period	= RBS_PMU_PERIOD,
	};
	struct perf_event *event;
	int cpu, ms;

	for_each_online_cpu(cpu) {
		per_cpu(rbs_pmu_nmis, cpu) = 0;
		event = perf_event_create_kernel_counter(&attr, cpu, NULL,
							 rbs_pmu_overflow, NULL);
		if (IS_ERR(event)) {
			pr_info("no PMU cycle counter on CPU %d (error %ld): NMI checks skipped\n",
				cpu, PTR_ERR(event));
			goto fail;
		}
		per_cpu(rbs_pmu_event, cpu) = event;
	}
	for (ms = 0; ms < 1000 && !READ_ONCE(rbs_pmu_not_nmi); ms += 20) {
		for_each_online_cpu(cpu) {
			if (!per_cpu(rbs_pmu_nmis, cpu))
				break;
		}
		if (cpu >= nr_cpu_ids)
			break;
		msleep(20);
	}
	if (READ_ONCE(rbs_pmu_not_nmi)) {
		pr_info("the PMU overflow interrupt is not an NMI (irqchip.gicv3_pseudo_nmi=1?): NMI checks skipped\n");
		goto fail;
	}
	if (ms >= 1000) {
		pr_info("no PMU overflow on CPU %d in 1 s: NMI checks skipped\n", cpu);
		goto fail;
	}
	rbs_nmi = true;
	pr_info("NMIs from PMU overflows every %u cycles\n", RBS_PMU_PERIOD);
	return 0;
 fail:
	rbs_nmi_exit();
	return 0;
}

/*
 * Overflows write while a phase writes.  Off: after synchronize_rcu(), no
 * NMI that saw it on is still running (an NMI handler is a read-side
 * critical section of RCU).
 */
static void rbs_pmu_writing(bool on)
{
	WRITE_ONCE(rbs_pmu_writes, on);
	if (!on)
		synchronize_rcu();
}
#else
static void rbs_nmi_send(int cpu) { }
static int rbs_nmi_init(void)
{
	pr_info("no NMI source on this architecture: NMI checks skipped\n");
	return 0;
}

static void rbs_nmi_exit(void) { }
static void rbs_pmu_writing(bool on) { }
#endif

static void rbs_send_nmi(struct rbs_cpu *c)
{
	if (!rbs_nmi || READ_ONCE(c->nmi_pending))
		return;
	WRITE_ONCE(c->nmi_pending, true);
	rbs_nmi_send(smp_processor_id());
}

#if RBS_BURSTS
/*
 * Test kernels of the sub-buffer ring buffer call this at the points of
 * their writers' slow path where the state a writer has read may change
 * under it (enum rb_test_point).  Every eighth time in task context, it
 * writes a burst of records nested in that writer, as an interrupt storm
 * would (under TCG, a vCPU that was not run for a while takes timer
 * interrupts back to back): enough to fill and deliver the sub-buffer
 * the interrupted writer is about to begin.  Between a reservation and
 * its time stamp word (every record passes there) two records: the
 * interrupted writer then publishes a time that is no longer the last
 * one, and the record after it must still get its own time.
 */
static void rbs_burst(struct trace_buffer *b, int cpu,
		      enum rb_test_point where)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs);
	int i, n;

	BUILD_BUG_ON(RB_TEST_NR_POINTS != RBS_POINTS);
	/* The reader's points are rbs_admin_claim_window()'s */
	if (where >= RB_TEST_FIRST_READER)
		return;
	if (!in_task() || c->in_burst || ++c->points[where] % 8)
		return;
	n = where == RB_TEST_RESERVED ? RBS_BURST_SHORT : RBS_BURST_RECORDS;
	c->in_burst = true;
	for (i = 0; i < n; i++)
		rbs_write(CTX_BURST, false);
	c->in_burst = false;
	c->bursts[where]++;
}
#endif

static void rbs_tasklet(struct tasklet_struct *t)
{
	rbs_write(CTX_SOFTIRQ, false);
}

static enum hrtimer_restart rbs_timer(struct hrtimer *timer)
{
	struct rbs_cpu *c = container_of(timer, struct rbs_cpu, timer);

	if (READ_ONCE(stop_writing))
		return HRTIMER_NORESTART;
	rbs_write(CTX_IRQ, false);
	tasklet_schedule(&c->tasklet);
	hrtimer_forward_now(timer, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int rbs_writer(void *arg)
{
	struct rbs_cpu *c = arg;
	unsigned long n = 0;

	hrtimer_start(&c->timer, ns_to_ktime(50 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
	while (!READ_ONCE(stop_writing)) {
		preempt_disable();
		rbs_write(CTX_TASK, !(++n % 16));
		preempt_enable();
		if (!(n % 64))
			cond_resched();
	}
	hrtimer_cancel(&c->timer);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Records a context committed among its sequence numbers below @seq: all
 * but the discarded ones (seq % 7 == 3).  A failed reservation takes no
 * sequence number.
 */
static unsigned long rbs_kept_below(s64 seq)
{
	return seq - (seq + 3) / 7;
}

/* Whether @event, read by @who, is a whole committed record of @cpu. */
static bool rbs_intact(int cpu, struct ring_buffer_event *event,
		       const char *who)
{
	struct rbs_rec *r = ring_buffer_event_data(event);
	u16 i;

	if (r->magic == RBS_DISCARDED) {
		rbs_fail("cpu%d %s seq %u: the %s got a discarded record\n",
			 cpu, ctx_name[r->ctx], r->seq, who);
		return false;
	}
	if (r->magic != RBS_MAGIC || r->ctx >= NR_CTX || r->cpu != cpu ||
	    ring_buffer_event_length(event) < sizeof(*r) + r->len) {
		rbs_fail("cpu%d: %s: corrupt header (magic %x ctx %u cpu %u len %u)\n",
			 cpu, who, r->magic, r->ctx, r->cpu, r->len);
		return false;
	}
	for (i = 0; i < r->len; i++) {
		if (r->fill[i] != (u8)(r->seq + i)) {
			rbs_fail("cpu%d %s seq %u: the %s got payload byte %u corrupt\n",
				 cpu, ctx_name[r->ctx], r->seq, who, i);
			return false;
		}
	}
	return true;
}

static void rbs_check(int cpu, struct ring_buffer_event *event, u64 ts,
		      unsigned long lost)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
	struct rbs_rec *r = ring_buffer_event_data(event);

	c->lost += lost;
	if (ts < c->last_ts)
		rbs_fail("cpu%d: time goes back %llu -> %llu\n", cpu, c->last_ts, ts);
	c->last_ts = ts;
	if (!rbs_intact(cpu, event, "reader")) {
		c->bad++;
		return;
	}
	/*
	 * The page-based buffer gives a writer that interrupted another
	 * one's time update the time of the record before it (6.1's
	 * __rb_reserve_next()): exact times are the sub-buffer buffer's.
	 */
	if (IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF) && ts != r->ts)
		rbs_fail("cpu%d %s seq %u: time %llu, its writer's was %llu\n",
			 cpu, ctx_name[r->ctx], r->seq, ts, r->ts);
	if ((s64)r->seq <= c->last_seq[r->ctx]) {
		rbs_fail("cpu%d %s: seq %u after %lld: read twice or out of order\n",
			 cpu, ctx_name[r->ctx], r->seq, c->last_seq[r->ctx]);
		c->bad++;
		return;
	}
	if (rbs_kept_below(r->seq) != rbs_kept_below(c->last_seq[r->ctx] + 1)) {
		c->missing += rbs_kept_below(r->seq) -
			      rbs_kept_below(c->last_seq[r->ctx] + 1);
		if (c->gaps) {
			struct rbs_gaps *g = c->gaps;
			struct rbs_gap *gap;

			gap = &g->gap[r->ctx][g->nr[r->ctx]++ % RBS_GAPS];
			gap->from = c->last_seq[r->ctx] + 1;
			gap->to = r->seq - 1;
		}
	}
	c->last_seq[r->ctx] = r->seq;
	c->read++;
}

/*
 * Consume and check at most @max records of @cpu.  Returns the records
 * read.
 */
static int rbs_consume_cpu(int cpu, int max)
{
	struct ring_buffer_event *event;
	unsigned long lost;
	int got = 0;
	u64 ts;

	while (got < max &&
	       (event = ring_buffer_consume(buffer, cpu, &ts, &lost))) {
		rbs_check(cpu, event, ts, lost);
		got++;
	}
	return got;
}

/*
 * One pass of the reader: at most RBS_DRAIN_BATCH records of each CPU in
 * turn.  Unbounded, a pass stays on a CPU whose writers refill its
 * buffer as fast as the reader empties it (discard mode, a slow reader)
 * and the other CPUs' buffers stay full for the whole phase.  Returns
 * the records read.
 */
#define RBS_DRAIN_BATCH	256

static int rbs_drain(void)
{
	int cpu, n = 0;

	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
		int got = rbs_consume_cpu(cpu, RBS_DRAIN_BATCH);

		/* Tells a starved reader from a buffer that refuses a read */
		c->passes++;
		if (!got && !ring_buffer_empty_cpu(buffer, cpu))
			c->passes_stuck++;
		n += got;
	}
	return n;
}

static int rbs_reader(void *arg)
{
	while (!kthread_should_stop()) {
		if (!rbs_drain())
			usleep_range(100, 200);
		cond_resched();
	}
	return 0;
}

/*
 * One pass of the non-consuming iterator over @cpu while the writers go
 * on, as "trace" is read with options/pause-on-trace off: every record it
 * returns is whole and in order per context, and where it skips records
 * of a context (overwritten under it), ring_buffer_iter_dropped() says so.
 */
static void rbs_iter_pass(int cpu)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
	struct ring_buffer_iter *iter;
	bool dropped[NR_CTX];
	s64 last[NR_CTX];
	int ctx, n;

	iter = ring_buffer_read_start(buffer, cpu, GFP_KERNEL);
	if (!iter)
		return;
	c->iter_passes++;
	for (ctx = 0; ctx < NR_CTX; ctx++) {
		last[ctx] = -1;
		dropped[ctx] = false;
	}
	for (n = 0; n < 4096; n++) {
		struct ring_buffer_event *event;
		struct rbs_rec *r;
		u64 ts;

		event = ring_buffer_iter_peek(iter, &ts);
		if (!event)
			break;
		if (ring_buffer_iter_dropped(iter))
			for (ctx = 0; ctx < NR_CTX; ctx++)
				dropped[ctx] = true;
		if (!rbs_intact(cpu, event, "iterator")) {
			c->iter_bad++;
			break;
		}
		r = ring_buffer_event_data(event);
		if (IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF) && ts != r->ts) {
			rbs_fail("cpu%d %s seq %u: iterator: time %llu, its writer's was %llu\n",
				 cpu, ctx_name[r->ctx], r->seq, ts, r->ts);
			c->iter_bad++;
			break;
		}
		if (last[r->ctx] >= 0 && (s64)r->seq <= last[r->ctx]) {
			rbs_fail("cpu%d %s: the iterator got seq %u after %lld\n",
				 cpu, ctx_name[r->ctx], r->seq, last[r->ctx]);
			c->iter_bad++;
			break;
		}
		if (last[r->ctx] >= 0 && !dropped[r->ctx] &&
		    rbs_kept_below(r->seq) != rbs_kept_below(last[r->ctx] + 1)) {
			/*
			 * 6.1's page-based iterator skips runs of records
			 * overwritten under it without saying so (measured:
			 * jumps of 2 to 43 sequence numbers): counted there,
			 * a failure here.
			 */
			c->iter_silent++;
			if (IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF)) {
				rbs_fail("cpu%d %s: iterator: seq %lld to %u, no drop reported\n",
					 cpu, ctx_name[r->ctx], last[r->ctx],
					 r->seq);
				c->iter_bad++;
				break;
			}
		}
		last[r->ctx] = r->seq;
		dropped[r->ctx] = false;
		c->iterated++;
		ring_buffer_iter_advance(iter);
	}
	ring_buffer_read_finish(iter);
}

/* In place of the reader: iterator passes over every CPU */
static int rbs_iterator(void *arg)
{
	int cpu;

	while (!kthread_should_stop()) {
		for_each_online_cpu(cpu)
			rbs_iter_pass(cpu);
		cond_resched();
	}
	return 0;
}

/*
 * Whether the reader read every record of @ctx kept among the sequence
 * numbers @from to @to: it has passed them, and none of the runs it never
 * read lies there.  Runs older than RBS_GAPS back cannot be looked at:
 * then true, and @undecided.
 */
static bool rbs_read_by_reader(struct rbs_cpu *c, int ctx, s64 from, s64 to,
			       bool *undecided)
{
	struct rbs_gaps *g = c->gaps;
	unsigned int i, nr = g->nr[ctx];

	*undecided = false;
	if (rbs_kept_below(c->last_seq[ctx] + 1) < rbs_kept_below(to + 1))
		return false;
	for (i = 0; i < min_t(unsigned int, nr, RBS_GAPS); i++) {
		struct rbs_gap *gap = &g->gap[ctx][(nr - 1 - i) % RBS_GAPS];

		if (gap->to < from)
			return true;
		if (gap->from > to)
			continue;	/* after the run */
		if (rbs_kept_below(min_t(s64, gap->to, to) + 1) !=
		    rbs_kept_below(max_t(s64, gap->from, from)))
			return false;
	}
	*undecided = nr > RBS_GAPS;
	return true;
}

/* A new iterator beside the reader: it starts at the oldest record */
static void rbs_beside_restart(int cpu)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
	int ctx;

	if (c->iter)
		ring_buffer_read_finish(c->iter);
	c->iter = ring_buffer_read_start(buffer, cpu, GFP_KERNEL);
	for (ctx = 0; ctx < NR_CTX; ctx++) {
		c->iter_last[ctx] = -1;
		c->iter_drop[ctx] = false;
	}
	c->iter_restarts++;
}

/*
 * The checks of a record @r that the iterator beside the reader of @cpu
 * returned with time @ts.  Returns false on a failure.
 */
static bool rbs_beside_check(struct rbs_cpu *c, int cpu, struct rbs_rec *r,
			     u64 ts)
{
	bool subbuf = IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF);
	s64 last = c->iter_last[r->ctx];
	bool undecided;

	if (subbuf && ts != r->ts) {
		rbs_fail("cpu%d %s seq %u: iterator beside reader: time %llu, writer's %llu\n",
			 cpu, ctx_name[r->ctx], r->seq, ts, r->ts);
		return false;
	}
	if ((s64)r->seq <= last || (s64)r->seq <= c->last_seq[r->ctx]) {
		c->iter_again++;
		if (!subbuf)
			return true;
		rbs_fail("cpu%d %s: iterator beside reader: seq %u after %lld, read to %lld\n",
			 cpu, ctx_name[r->ctx], r->seq, last, c->last_seq[r->ctx]);
		return false;
	}
	if (last < 0 || rbs_kept_below(r->seq) == rbs_kept_below(last + 1))
		return true;
	if (c->iter_drop[r->ctx]) {
		c->iter_reported++;
		return true;
	}
	if (rbs_read_by_reader(c, r->ctx, last + 1, r->seq - 1, &undecided)) {
		c->iter_consumed++;
		c->iter_undecided += undecided;
		return true;
	}
	c->iter_silent++;
	if (!subbuf)
		return true;
	rbs_fail("cpu%d %s: iterator beside reader: seq %lld to %u, no drop, read to %lld\n",
		 cpu, ctx_name[r->ctx], last, r->seq, c->last_seq[r->ctx]);
	return false;
}

/*
 * Up to @max steps of the iterator beside the reader of @cpu.  Returns
 * the records it checked, or -1 on a failure.
 */
static int rbs_beside_iterate(int cpu, int max)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
	int ctx, n;

	for (n = 0; n < max; n++) {
		struct ring_buffer_event *event;
		struct rbs_rec *r;
		u64 ts;

		event = ring_buffer_iter_peek(c->iter, &ts);
		if (!event)
			break;
		if (ring_buffer_iter_dropped(c->iter))
			for (ctx = 0; ctx < NR_CTX; ctx++)
				c->iter_drop[ctx] = true;
		if (!rbs_intact(cpu, event, "iterator beside the reader"))
			return -1;
		r = ring_buffer_event_data(event);
		if (!rbs_beside_check(c, cpu, r, ts))
			return -1;
		c->iter_last[r->ctx] = r->seq;
		c->iter_drop[r->ctx] = false;
		c->iterated++;
		ring_buffer_iter_advance(c->iter);
	}
	return n;
}

/*
 * The iterator beside the reader: for each CPU in turn, consume a random
 * number of records, then step the iterator a random number of times;
 * now and then start a new iterator.  After a failure the CPU's iterator
 * is closed and the reader goes on alone.
 */
#define RBS_BESIDE_BATCH	64

static int rbs_beside(void *arg)
{
	int cpu, n, got;

	while (!kthread_should_stop()) {
		n = 0;
		for_each_online_cpu(cpu) {
			struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

			if (!c->iter_bad && (!c->iter || !get_random_u32_below(16)))
				rbs_beside_restart(cpu);
			n += rbs_consume_cpu(cpu, get_random_u32_below(RBS_BESIDE_BATCH));
			if (!c->iter)
				continue;
			got = rbs_beside_iterate(cpu, get_random_u32_below(RBS_BESIDE_BATCH));
			if (got < 0) {
				c->iter_bad++;
				ring_buffer_read_finish(c->iter);
				c->iter = NULL;
				continue;
			}
			n += got;
		}
		if (!n)
			usleep_range(100, 200);
		cond_resched();
	}
	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		if (c->iter)
			ring_buffer_read_finish(c->iter);
		c->iter = NULL;
	}
	return 0;
}

enum rbs_mode { RBS_OVERWRITE, RBS_DISCARD, RBS_ITERATED, RBS_BESIDE };

static const char * const rbs_mode_name[] = {
	"overwrite", "discard", "iterated", "beside"
};

/*
 * Writers in flight-recorder or (RBS_DISCARD) discard mode, with the
 * reader, the iterator in its place (RBS_ITERATED) or both (RBS_BESIDE)
 * beside them; then a drain and the checks of the counts.
 */
static int rbs_run(enum rbs_mode phase)
{
	static int (* const read_fn[])(void *) = {
		rbs_reader, rbs_reader, rbs_iterator, rbs_beside
	};
	const char *mode = rbs_mode_name[phase];
	bool overwrite = phase != RBS_DISCARD;
	bool iterate = phase == RBS_ITERATED;
	struct task_struct *reader;
	int cpu, ctx, ret = 0;

	buffer = ring_buffer_alloc(size_kb * 1024, overwrite ? RB_FL_OVERWRITE : 0);
	if (!buffer)
		return -ENOMEM;
	ret = ring_buffer_subbuf_order_set(buffer, subbuf_order);
	if (ret) {
		rbs_fail("%s: sub-buffer order %u: error %d\n", mode, subbuf_order, ret);
		ring_buffer_free(buffer);
		buffer = NULL;
		return ret;
	}
#if RBS_BURSTS
	ring_buffer_set_test_hook(buffer, rbs_burst);
#endif

	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		memset(c, 0, sizeof(*c));
		for (ctx = 0; ctx < NR_CTX; ctx++)
			c->last_seq[ctx] = -1;
		if (phase == RBS_BESIDE) {
			c->gaps = kzalloc(sizeof(*c->gaps), GFP_KERNEL);
			if (!c->gaps)
				ret = -ENOMEM;
		}
		hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
		c->timer.function = rbs_timer;
		tasklet_setup(&c->tasklet, rbs_tasklet);
	}
	if (ret)
		goto out;
	WRITE_ONCE(stop_writing, false);
	reader = kthread_run(read_fn[phase], NULL, "rbs_reader");
	if (IS_ERR(reader)) {
		ret = PTR_ERR(reader);
		goto out;
	}
	rbs_pmu_writing(true);
	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		c->thread = kthread_run_on_cpu(rbs_writer, c, cpu, "rbs_writer/%u");
		if (IS_ERR(c->thread)) {
			ret = PTR_ERR(c->thread);
			c->thread = NULL;
			break;
		}
	}
	if (!ret)
		msleep(seconds * 1000);
	WRITE_ONCE(stop_writing, true);
	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		if (c->thread)
			kthread_stop(c->thread);
		hrtimer_cancel(&c->timer);
		tasklet_kill(&c->tasklet);
	}
	kthread_stop(reader);
	rbs_pmu_writing(false);
	while (rbs_drain())
		;
	if (ret)
		goto out;

	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
		unsigned long committed = 0, failed = 0, discarded = 0;
		unsigned long over = ring_buffer_overrun_cpu(buffer, cpu);
		unsigned long drop = ring_buffer_dropped_events_cpu(buffer, cpu);
		unsigned long cover = ring_buffer_commit_overrun_cpu(buffer, cpu);
		unsigned long bread = ring_buffer_read_events_cpu(buffer, cpu);
		unsigned long left = ring_buffer_entries_cpu(buffer, cpu);
		bool empty = ring_buffer_empty_cpu(buffer, cpu);

		for (ctx = 0; ctx < NR_CTX; ctx++) {
			committed += c->committed[ctx];
			failed += c->failed[ctx];
			discarded += c->discarded[ctx];
			/* committed after the last record read */
			c->missing += rbs_kept_below(c->seq[ctx]) -
				      rbs_kept_below(c->last_seq[ctx] + 1);
		}
		pr_info("%s cpu%d: committed task %lu softirq %lu irq %lu nmi %lu (%lu nested) burst %lu (bursts %lu + %lu + %lu), discarded %lu, failed %lu; read %lu, never read %lu, lost reported %lu; overrun %lu, dropped %lu, commit overrun %lu\n",
			mode, cpu, c->committed[CTX_TASK], c->committed[CTX_SOFTIRQ],
			c->committed[CTX_IRQ], c->committed[CTX_NMI], c->nmi_nested,
			c->committed[CTX_BURST], c->bursts[0], c->bursts[1], c->bursts[2],
			discarded, failed,
			c->read, c->missing, c->lost, over, drop, cover);
		if (c->read + c->bad + over != committed)
			rbs_fail("cpu%d: read %lu + overrun %lu != committed %lu\n",
				 cpu, c->read + c->bad, over, committed);
		/*
		 * Which side is off when the sum is: the records the
		 * sequence numbers show missing are the ones really lost.
		 */
		if (!c->bad && c->missing != over)
			rbs_fail("cpu%d: %lu records never read, the buffer counts %lu overrun\n",
				 cpu, c->missing, over);
		/* The reader consumed until empty, with the writers stopped */
		if (bread != c->read + c->bad || left || !empty)
			rbs_fail("cpu%d: after the last read the buffer counts %lu read, %lu entries left, %s\n",
				 cpu, bread, left, empty ? "empty" : "not empty");
		if (drop + cover > failed)
			rbs_fail("cpu%d: %lu counted lost at write, only %lu writes failed\n",
				 cpu, drop + cover, failed);
		/*
		 * The page-based buffer reports fewer losses to the reader
		 * than it counts as overrun once records are discarded
		 * (measured: 484990 reported, 487784 overrun); read +
		 * overrun = committed holds on both.
		 */
		if ((c->lost < over &&
		     (IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF) || !discarded)) ||
		    c->lost > over + drop + cover)
			rbs_fail("cpu%d: %lu reported lost, not within overrun %lu .. %lu\n",
				 cpu, c->lost, over, over + drop + cover);
		if (overwrite && drop)
			rbs_fail("cpu%d: dropped events in overwrite mode\n", cpu);
		if (!overwrite && over)
			rbs_fail("cpu%d: overrun in discard mode\n", cpu);
		/*
		 * With the reader's passes over the CPU, and those that read
		 * nothing of a buffer not empty ("stuck"): few passes, a
		 * starved reader; many stuck ones, a buffer refusing reads.
		 */
		if (!c->committed[CTX_TASK] || !c->committed[CTX_IRQ] ||
		    !c->committed[CTX_SOFTIRQ] ||
		    (rbs_nmi && !c->committed[CTX_NMI]) ||
		    (RBS_BURSTS && !c->committed[CTX_BURST]))
			rbs_fail("cpu%d: a context wrote nothing (reader: %lu passes, %lu stuck)\n",
				 cpu, c->passes, c->passes_stuck);
		if (iterate) {
			pr_info("%s cpu%d: the iterator checked %lu records; skips without a drop reported: %lu\n",
				mode, cpu, c->iterated, c->iter_silent);
			if (!c->iterated && !c->iter_bad)
				rbs_fail("cpu%d: the iterator got nothing in %lu passes\n",
					 cpu, c->iter_passes);
		}
		if (phase == RBS_BESIDE) {
			pr_info("%s cpu%d: the iterator checked %lu records in %lu iterators; its skips: %lu reported, %lu of records read (%lu older than the gaps kept), %lu neither; records again or consumed: %lu\n",
				mode, cpu, c->iterated, c->iter_restarts,
				c->iter_reported, c->iter_consumed,
				c->iter_undecided, c->iter_silent,
				c->iter_again);
			if (!c->iterated && !c->iter_bad)
				rbs_fail("cpu%d: the iterator beside the reader got nothing\n",
					 cpu);
		}
		/*
		 * A burst before rb_new_subbuf()'s checks leaves the writer
		 * under it with a stale offset: it must look again, not fail
		 * and count a commit overrun.  A real one needs a whole
		 * buffer written while a reservation is open.
		 */
		if (RBS_BURSTS && overwrite && cover > 4 &&
		    cover * 2 > c->bursts[0 /* RB_TEST_NEW_SUBBUF */])
			rbs_fail("cpu%d: %lu commit overruns after %lu bursts: stale offset\n",
				 cpu, cover, c->bursts[0]);
		/* Every task record passes the point: a run must have some */
		if (RBS_BURSTS && !c->bursts[2 /* RB_TEST_RESERVED */])
			rbs_fail("cpu%d: no burst between a reservation and its time stamp word\n",
				 cpu);
	}
 out:
	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		kfree(c->gaps);
		c->gaps = NULL;
	}
	ring_buffer_free(buffer);
	buffer = NULL;
	return ret;
}

/* ---- admin=1: readers around writers and admin operations ---- */

#define RBS_DUMP_LOOPS	4096

/*
 * ftrace_dump()'s loop (while not empty, consume), bounded: a reader that
 * says "not empty" but returns nothing would loop for ever in an oops.
 */
static unsigned long rbs_dump_cpu(struct trace_buffer *b, int cpu,
				  u32 *first, bool *stalled)
{
	struct ring_buffer_event *event;
	unsigned long loops = 0, n = 0;
	u32 expect = *first;

	*stalled = false;
	while (!ring_buffer_empty_cpu(b, cpu)) {
		event = ring_buffer_consume(b, cpu, NULL, NULL);
		if (event) {
			u32 v = *(u32 *)ring_buffer_event_data(event);

			if (v != expect)
				rbs_fail("dump: record %u where %u was due\n", v, expect);
			expect = v + 1;
			n++;
		}
		if (++loops == RBS_DUMP_LOOPS) {
			*stalled = true;
			break;
		}
	}
	*first = expect;
	return n;
}

/*
 * An oops inside an event: ftrace_dump() runs nested in the writer.  It
 * must get every record before the open one (the page-based buffer reads
 * up to its commit page) and see the buffer empty after them.
 */
static void rbs_admin_nested_read(void)
{
	const u32 nr = 600;	/* two sub-buffers and a part of a third */
	struct ring_buffer_event *open, *event;
	struct trace_buffer *b;
	u32 v, first = 0;
	unsigned long n;
	bool stalled;
	int cpu;

	b = ring_buffer_alloc(size_kb * 1024, RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("nested read: no buffer\n");
		return;
	}
	preempt_disable();
	cpu = smp_processor_id();
	for (v = 0; v < nr; v++)
		ring_buffer_write(b, sizeof(v), &v);
	open = ring_buffer_lock_reserve(b, sizeof(v));
	if (!open) {
		preempt_enable();
		rbs_fail("nested read: reserve failed\n");
		goto out;
	}
	*(u32 *)ring_buffer_event_data(open) = nr;
	n = rbs_dump_cpu(b, cpu, &first, &stalled);
	ring_buffer_unlock_commit(b, open);
	event = ring_buffer_consume(b, cpu, NULL, NULL);
	preempt_enable();

	if (stalled)
		rbs_fail("nested read: not empty, yet nothing to read (%lu read)\n", n);
	if (n != nr)
		rbs_fail("nested read: %lu of the %u records before the open one\n", n, nr);
	if (!event || *(u32 *)ring_buffer_event_data(event) != nr)
		rbs_fail("nested read: the record open during the read is lost\n");
	else
		pr_info("nested read: %lu records read under an open reservation, then it\n", n);
 out:
	ring_buffer_free(b);
}

#ifdef RBS_NMI
static struct trace_buffer *dump_buffer;
static unsigned long dump_stalls, dump_read;
static u32 dump_next;

static void rbs_nmi_dump(struct rbs_cpu *c)
{
	bool stalled;

	dump_read += rbs_dump_cpu(dump_buffer, smp_processor_id(), &dump_next,
				  &stalled);
	dump_stalls += stalled;
}

static int dump_target = -1;

/*
 * Sends the NMIs from another CPU, at a time unrelated to where the
 * target is in its loop: a self-NMI arrives before the next instruction.
 * A PMU overflow needs no kicker: it comes at such a time anyway.
 */
static int rbs_dump_kicker(void *arg)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, dump_target);

	while (!kthread_should_stop()) {
		if (READ_ONCE(c->dump_pending) && !READ_ONCE(c->dump_sent)) {
			WRITE_ONCE(c->dump_sent, true);
			udelay(get_random_u32() % 8);
			rbs_nmi_send(dump_target);
		}
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/*
 * ftrace_dump() from an NMI that came in while the reader lock was held
 * on its CPU (as a hard-lockup NMI can): it must not spin on the lock nor
 * loop on "not empty".  The page-based buffer reads without the lock then
 * and stops that CPU buffer for good, which is how the check knows the
 * case was reached: the next write fails.
 */
static void rbs_admin_nmi_dump(void)
{
	struct task_struct *kicker = NULL;
	struct rbs_cpu *c;
	int cpu, other, round, k;
	u32 v = 0;
	long spin;

	if (!rbs_nmi) {
		pr_info("NMI dump: no NMI source (skipped)\n");
		return;
	}
	dump_buffer = ring_buffer_alloc(size_kb * 1024, RB_FL_OVERWRITE);
	if (!dump_buffer) {
		rbs_fail("NMI dump: no buffer\n");
		return;
	}
	dump_stalls = 0;
	dump_read = 0;
	dump_next = 0;
	rbs_nmi_dump_fn = rbs_nmi_dump;
	migrate_disable();
	cpu = smp_processor_id();
	c = this_cpu_ptr(&rbs);
	c->dump_sent = false;
	c->dump_pending = false;
	dump_target = cpu;
	other = cpumask_any_but(cpu_online_mask, cpu);
	if (rbs_nmi_at_once && other < nr_cpu_ids) {
		kicker = kthread_run_on_cpu(rbs_dump_kicker, NULL, other,
					    "rbs_kicker/%u");
		if (IS_ERR(kicker))
			kicker = NULL;
	}
	for (round = 0; round < 4000 && !dump_stalls; round++) {
		for (k = 0; k < 8; k++, v++) {
			if (ring_buffer_write(dump_buffer, sizeof(v), &v))
				goto reached;
		}
		WRITE_ONCE(c->dump_pending, true);
		if (!kicker)
			rbs_nmi_send(cpu);
		/* Take and drop the reader lock until the NMI has run */
		for (spin = 10000000; READ_ONCE(c->dump_pending) && spin; spin--)
			ring_buffer_empty_cpu(dump_buffer, cpu);
		WRITE_ONCE(c->dump_sent, false);
		if (!spin) {
			rbs_fail("NMI dump: the NMI did not come\n");
			break;
		}
		if (!(round % 64))
			cond_resched();
	}
	migrate_enable();
	if (dump_stalls)
		rbs_fail("NMI dump: %lu dumps found it not empty, yet read nothing\n",
			 dump_stalls);
	else
		pr_info("NMI dump: no NMI in %d landed inside the reader lock (not reached)\n",
			round);
	goto out;
 reached:
	migrate_enable();
	pr_info("NMI dump: reached after %d NMIs: read without the lock, %lu records, CPU buffer stopped\n",
		round, dump_read);
	if (dump_stalls)
		rbs_fail("NMI dump: %lu dumps stalled\n", dump_stalls);
 out:
	if (kicker)
		kthread_stop(kicker);
	ring_buffer_free(dump_buffer);
	dump_buffer = NULL;
}
#else
static void rbs_admin_nmi_dump(void)
{
	pr_info("NMI dump: no NMI source (skipped)\n");
}
#endif

#ifdef CONFIG_RING_BUFFER_ALLOW_SWAP
static struct trace_buffer *swap_a, *swap_b;
static int swap_target;
static unsigned long swaps_done, swaps_refused;

static void rbs_swap_fn(void *arg)
{
	if (ring_buffer_swap_cpu(swap_a, swap_b, swap_target))
		swaps_refused++;
	else
		swaps_done++;
}

static int rbs_swapper(void *arg)
{
	while (!kthread_should_stop()) {
		smp_call_function_single(swap_target, rbs_swap_fn, NULL, 1);
		cond_resched();
	}
	return 0;
}

/*
 * A per-CPU snapshot swap (an IPI to the CPU, from tracing_snapshot_write())
 * while that CPU writes: a swap between a writer's look-up of its CPU
 * buffer and its reservation must not leave it committing into the
 * other buffer's CPU buffer.  Every record read back from either buffer
 * must be whole, and both buffers must still take writes afterwards.
 */
static void rbs_admin_swap(void)
{
	struct ring_buffer_event *event;
	struct task_struct *swapper;
	unsigned long writes = 0, bad = 0, n = 0, end;
	struct trace_buffer *bufs[2];
	int cpu, other, k;
	u32 v;

	swap_a = ring_buffer_alloc(size_kb * 1024, RB_FL_OVERWRITE);
	swap_b = ring_buffer_alloc(size_kb * 1024, RB_FL_OVERWRITE);
	if (!swap_a || !swap_b) {
		rbs_fail("swap: no buffers\n");
		goto out;
	}
	swaps_done = 0;
	swaps_refused = 0;
	migrate_disable();
	cpu = smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, cpu);
	if (other >= nr_cpu_ids) {
		migrate_enable();
		pr_info("swap: needs a second CPU (skipped)\n");
		goto out;
	}
	swap_target = cpu;
	swapper = kthread_run_on_cpu(rbs_swapper, NULL, other, "rbs_swapper/%u");
	if (IS_ERR(swapper)) {
		migrate_enable();
		rbs_fail("swap: no swapper thread\n");
		goto out;
	}
	end = jiffies + 2 * HZ;
	while (time_before(jiffies, end)) {
		preempt_disable();
		event = ring_buffer_lock_reserve(swap_a, sizeof(v));
		if (event) {
			*(u32 *)ring_buffer_event_data(event) = RBS_MAGIC;
			ring_buffer_unlock_commit(swap_a, event);
			writes++;
		}
		preempt_enable();
		if (!(++n % 256))
			cond_resched();
	}
	kthread_stop(swapper);
	bufs[0] = swap_a;
	bufs[1] = swap_b;
	for (k = 0; k < 2; k++) {
		v = RBS_MAGIC;
		if (ring_buffer_write(bufs[k], sizeof(v), &v))
			rbs_fail("swap: buffer %c takes no more writes\n", 'A' + k);
		while ((event = ring_buffer_consume(bufs[k], cpu, NULL, NULL)))
			bad += *(u32 *)ring_buffer_event_data(event) != RBS_MAGIC;
	}
	migrate_enable();
	if (bad)
		rbs_fail("swap: %lu records read back corrupt\n", bad);
	if (!swaps_done)
		rbs_fail("swap: no swap went through (%lu refused)\n", swaps_refused);
	pr_info("swap: %lu swaps (%lu refused) under %lu writes\n",
		swaps_done, swaps_refused, writes);
 out:
	if (swap_a)
		ring_buffer_free(swap_a);
	if (swap_b)
		ring_buffer_free(swap_b);
	swap_a = NULL;
	swap_b = NULL;
}
#else
static void rbs_admin_swap(void)
{
	pr_info("swap: no CONFIG_RING_BUFFER_ALLOW_SWAP (skipped)\n");
}
#endif

/*
 * The admin checks' fills are counted in one-page sub-buffers, whatever
 * the page size: rbs_put() with 12 fill bytes makes a 40-byte record,
 * RBS_PER_PAGE of them fill the data of a page exactly (after its 16-byte
 * header: 102 with 4 KiB pages, 1638 with 64 KiB pages), and a buffer of
 * RBS_PAGES(n) bytes has n one-page sub-buffers (n * 4000 with 4 KiB).
 */
#define RBS_PER_PAGE	((PAGE_SIZE - 16) / 40)
#define RBS_PAGES(n)	((n) * (PAGE_SIZE - 96))

/*
 * Write record @seq with @len fill bytes to @b from this CPU, as CTX_TASK.
 * Returns what ring_buffer_write() returned.
 */
static int rbs_put(struct trace_buffer *b, int cpu, u32 seq, u16 len)
{
	struct {
		struct rbs_rec r;
		u8 fill[128];
	} rec = { .r = { .magic = RBS_MAGIC, .ctx = CTX_TASK, .cpu = cpu,
			 .len = len, .seq = seq } };
	u16 i;

	for (i = 0; i < len; i++)
		rec.r.fill[i] = (u8)(seq + i);
	return ring_buffer_write(b, sizeof(rec.r) + len, &rec);
}

/*
 * rbs_put() records numbered @from up to @to with @len fill bytes, until
 * one is refused, with interrupts off so that no gap puts a time record
 * in.  Returns the number after the last one written.
 */
static u32 rbs_put_run(struct trace_buffer *b, int cpu, u32 from, u32 to, u16 len)
{
	unsigned long flags;
	u32 seq;

	local_irq_save(flags);
	for (seq = from; seq < to && !rbs_put(b, cpu, seq, len); seq++)
		;
	local_irq_restore(flags);
	return seq;
}

/*
 * Up to @max reads of trace_pipe_raw on CPU @cpu of @b into one page of
 * the reader's: ring_buffer_read_page() of a whole sub-buffer, waiting for
 * a full one (@full, as splice does) or not (as read() does).  Returns how
 * many read something before the first that did not, or -ENOMEM without a
 * page (@what's failure).
 */
static int rbs_read_pages(struct trace_buffer *b, int cpu, int max, int full,
			  const char *what)
{
	void *page = ring_buffer_alloc_read_page(b, cpu);
	int n;

	if (IS_ERR_OR_NULL(page)) {
		rbs_fail("%s: no read page\n", what);
		return -ENOMEM;
	}
	for (n = 0; n < max; n++)
		if (ring_buffer_read_page(b, &page, ring_buffer_subbuf_size_get(b),
					  cpu, full) < 0)
			break;
	ring_buffer_free_read_page(b, cpu, page);
	return n;
}

/*
 * Advance @iter over up to @max records of CPU @cpu, each whole and
 * numbered one after the one before, the first @first or later.  Returns
 * how many it read; *@last is the number of the last one, -1 if none.
 */
static u32 rbs_iter_read_seq(struct ring_buffer_iter *iter, int cpu,
			     u32 first, u32 max, s64 *last, const char *what)
{
	struct ring_buffer_event *event;
	u32 n = 0;

	*last = -1;
	while (n < max && (event = ring_buffer_iter_peek(iter, NULL))) {
		struct rbs_rec *r = ring_buffer_event_data(event);

		if (!rbs_intact(cpu, event, what))
			break;
		if (!n && r->seq < first) {
			rbs_fail("%s: first record %u, not %u or later\n",
				 what, r->seq, first);
			break;
		}
		if (n && r->seq != *last + 1) {
			rbs_fail("%s: record %u after %lld\n", what, r->seq, *last);
			break;
		}
		*last = r->seq;
		n++;
		ring_buffer_iter_advance(iter);
	}
	return n;
}

/*
 * "cat trace" across "echo > per_cpu/cpuN/trace": an iterator that read
 * part of a CPU buffer, then a reset of it, then more new records than
 * the iterator had read, in other sizes.  What it returns after that is
 * whole and new: a position from before the reset means nothing after it.
 */
static void rbs_admin_iter_reset(void)
{
	struct ring_buffer_iter *iter;
	int cpu, before = failures;
	struct trace_buffer *b;
	s64 last;
	u32 seq, n;

	b = ring_buffer_alloc(64 * 1024, RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("iterator reset: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	/* 96-byte records, then 100-byte ones: their boundaries differ */
	for (seq = 0; seq < 300; seq++)
		rbs_put(b, cpu, seq, 72);
	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (!iter) {
		rbs_fail("iterator reset: no iterator\n");
		goto out;
	}
	rbs_iter_read_seq(iter, cpu, 0, 200, &last, "iterator before a reset");
	ring_buffer_reset_cpu(b, cpu);
	for (seq = 1000; seq < 1300; seq++)
		rbs_put(b, cpu, seq, 76);
	n = rbs_iter_read_seq(iter, cpu, 1000, 400, &last,
			      "iterator after a reset");
	ring_buffer_read_finish(iter);
	if (failures == before)
		pr_info("iterator reset: %u whole records after the reset\n", n);
 out:
	migrate_enable();
	ring_buffer_free(b);
}

/*
 * "cat trace" across a record that fills the last sub-buffer exactly, in
 * a buffer of three sub-buffers (a count that is not a power of two): the
 * position after that record is the start of the next generation, and the
 * iterator must go on there.  40-byte records, RBS_PER_PAGE to a
 * one-page sub-buffer; three sub-buffers' worth and 50 more, in
 * flight-recorder mode: the iterator returns consecutive records up to
 * the last one written.
 */
static void rbs_admin_iter_exact_fill(void)
{
	const u32 nr = 3 * RBS_PER_PAGE + 50;
	struct ring_buffer_iter *iter;
	int cpu, before = failures;
	struct trace_buffer *b;
	s64 last;
	u32 seq, n;

	b = ring_buffer_alloc(RBS_PAGES(3), RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("iterator exact fill: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	for (seq = 0; seq < nr; seq++)
		rbs_put(b, cpu, seq, 12);
	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (!iter) {
		rbs_fail("iterator exact fill: no iterator\n");
		goto out;
	}
	n = rbs_iter_read_seq(iter, cpu, 0, 2 * nr, &last, "iterator exact fill");
	ring_buffer_read_finish(iter);
	if (last != nr - 1)
		rbs_fail("iterator exact fill: %u records, the last %lld, not %u\n",
			 n, last, nr - 1);
	if (failures == before)
		pr_info("iterator exact fill: %u records, up to the last one written\n", n);
 out:
	migrate_enable();
	ring_buffer_free(b);
}

/*
 * "cat trace" while trace_pipe reads past it: an iterator that read the
 * first records of a CPU buffer, then a reader that consumes past the
 * iterator.  What the reader took was read, not lost: the iterator must
 * go on at the first record the reader has not returned, with
 * ring_buffer_iter_dropped() false, as 6.1's page-based iterator does
 * (it starts over from the reader's page).  Eight one-page sub-buffers,
 * four filled with 40-byte records (RBS_PER_PAGE to a sub-buffer):
 *  - handover: the reader stops in the third sub-buffer, holding the
 *    rest of it on its page;
 *  - past: the reader returns all of the first two sub-buffers, and
 *    holds nothing;
 *  - exact: the iterator read as far as the reader then consumes, the
 *    first two sub-buffers;
 *  - overwritten, the control: the writers overwrite what the iterator
 *    had not read before the reader reads on; that is a loss, and
 *    ring_buffer_iter_dropped() must say so.  The page-based iterator
 *    does not (it starts over from the reader's page without noting
 *    a loss): counted there, a failure here.
 * Where the sub-buffer buffer has its test hooks, the same after the
 * reader returned the first sub-buffer and its gapless run was made to
 * look older (ring_buffer_test_age_reader()), as after hours of a reader
 * that keeps up with a busy CPU:
 *  - aged handover, aged past: by three quarters of the range positions
 *    are compared in.  Left there, the run's start would look like a
 *    position after the iterator's, and the records the reader took
 *    like a loss; the reader's next claim must bring it within a quarter;
 *  - aged less: by an eighth, which the iterator must take as it is;
 *  - aged overwritten, the control: by three quarters, then the writers
 *    overwrite; bringing the run's start near must not excuse the loss.
 */
enum rbs_ahead {
	RBS_AHEAD_HANDOVER,
	RBS_AHEAD_PAST,
	RBS_AHEAD_EXACT,
	RBS_AHEAD_OVERWRITTEN,
#if RBS_BURSTS
	RBS_AHEAD_AGED_HANDOVER,
	RBS_AHEAD_AGED_PAST,
	RBS_AHEAD_AGED_LESS,
	RBS_AHEAD_AGED_OVERWRITTEN,
#endif
	RBS_AHEAD_CASES,
};

static const struct {
	const char *name;
	u32 iterated;	/* records the iterator reads first */
	u32 first;	/* records consumed next ... */
	unsigned long aged;	/* ... the reader's run then made older by */
	u32 written;	/* records written after that ... */
	u32 consumed;	/* ... and then consumed */
	bool lost;	/* whether the iterator must report a loss */
} rbs_ahead[RBS_AHEAD_CASES] = {
	[RBS_AHEAD_HANDOVER]	= { "handover", 10, 0, 0, 0, 2 * RBS_PER_PAGE + 5 },
	[RBS_AHEAD_PAST]	= { "past", 10, 0, 0, 0, 2 * RBS_PER_PAGE },
	[RBS_AHEAD_EXACT]	= { "exact", 2 * RBS_PER_PAGE, 0, 0, 0,
				    2 * RBS_PER_PAGE },
	[RBS_AHEAD_OVERWRITTEN]	= { "overwritten", 10, 0, 0, 8 * RBS_PER_PAGE, 5,
				    true },
#if RBS_BURSTS
	[RBS_AHEAD_AGED_HANDOVER] = { "aged handover", 10, RBS_PER_PAGE,
				      3 * RB_POS_QUARTER, 0, RBS_PER_PAGE + 5 },
	[RBS_AHEAD_AGED_PAST]	= { "aged past", 10, RBS_PER_PAGE,
				    3 * RB_POS_QUARTER, 0, RBS_PER_PAGE },
	[RBS_AHEAD_AGED_LESS]	= { "aged less", 10, RBS_PER_PAGE,
				    RB_POS_QUARTER / 2, 0, RBS_PER_PAGE + 5 },
	[RBS_AHEAD_AGED_OVERWRITTEN] = { "aged overwritten", 10, RBS_PER_PAGE,
					 3 * RB_POS_QUARTER, 8 * RBS_PER_PAGE, 5,
					 true },
#endif
};

/*
 * Consume @nr records of CPU @cpu of @b for case @name of
 * rbs_iter_ahead_case(); *@next is the number after the last one.
 */
static void rbs_ahead_consume(struct trace_buffer *b, int cpu, u32 nr,
			      s64 *next, const char *name)
{
	struct ring_buffer_event *event;
	u32 n;

	for (n = 0; n < nr; n++) {
		event = ring_buffer_consume(b, cpu, NULL, NULL);
		if (!event) {
			rbs_fail("iterator ahead %s: the reader got %u records, not %u\n",
				 name, n, nr);
			return;
		}
		*next = ((struct rbs_rec *)ring_buffer_event_data(event))->seq + 1;
	}
}

/* One case of rbs_admin_iter_ahead() */
static void rbs_iter_ahead_case(enum rbs_ahead which)
{
	const u32 nr = 4 * RBS_PER_PAGE;
	struct ring_buffer_event *event;
	struct ring_buffer_iter *iter;
	const char *name = rbs_ahead[which].name;
	struct trace_buffer *b;
	bool dropped;
	s64 last, next = -1;
	u32 n;
	int cpu;

	b = ring_buffer_alloc(RBS_PAGES(8), RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("iterator ahead %s: no buffer\n", name);
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	rbs_put_run(b, cpu, 0, nr, 12);
	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (!iter) {
		rbs_fail("iterator ahead %s: no iterator\n", name);
		goto out;
	}
	n = rbs_iter_read_seq(iter, cpu, 0, rbs_ahead[which].iterated, &last,
			      "iterator ahead");
	if (n != rbs_ahead[which].iterated)
		rbs_fail("iterator ahead %s: the iterator read %u records, not %u\n",
			 name, n, rbs_ahead[which].iterated);
	/* Nothing is lost yet; this also clears the iterator's note */
	if (ring_buffer_iter_dropped(iter))
		rbs_fail("iterator ahead %s: a loss reported in the first %u records\n",
			 name, n);
	rbs_ahead_consume(b, cpu, rbs_ahead[which].first, &next, name);
#if RBS_BURSTS
	ring_buffer_test_age_reader(b, cpu, rbs_ahead[which].aged);
#endif
	rbs_put_run(b, cpu, nr, nr + rbs_ahead[which].written, 12);
	rbs_ahead_consume(b, cpu, rbs_ahead[which].consumed, &next, name);
	event = ring_buffer_iter_peek(iter, NULL);
	dropped = ring_buffer_iter_dropped(iter);
	if (!event) {
		rbs_fail("iterator ahead %s: nothing after the reader's %lld\n",
			 name, next - 1);
	} else if (rbs_intact(cpu, event, "iterator ahead")) {
		u32 seq = ((struct rbs_rec *)ring_buffer_event_data(event))->seq;

		if (seq != next)
			rbs_fail("iterator ahead %s: record %u after the reader's %lld\n",
				 name, seq, next - 1);
		else if (dropped && !rbs_ahead[which].lost)
			rbs_fail("iterator ahead %s: a loss reported before record %u, none lost\n",
				 name, seq);
		else if (!dropped && rbs_ahead[which].lost &&
			 IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF))
			rbs_fail("iterator ahead %s: no loss reported before record %u\n",
				 name, seq);
		else
			pr_info("iterator ahead %s: record %u next, %s\n", name, seq,
				dropped ? "a loss reported" :
				rbs_ahead[which].lost ?
				"no loss reported (page-based: counted)" :
				"no loss reported");
	}
	ring_buffer_read_finish(iter);
 out:
	migrate_enable();
	ring_buffer_free(b);
}

static void rbs_admin_iter_ahead(void)
{
	enum rbs_ahead which;

	for (which = 0; which < RBS_AHEAD_CASES; which++)
		rbs_iter_ahead_case(which);
}

/*
 * The readers of rbs_admin_exact_fill_read(): each reads what CPU @cpu
 * of @b holds, @nr records numbered from 0, and returns how many it read
 * in order.
 */
static u32 rbs_exact_consume(struct trace_buffer *b, int cpu, u32 nr)
{
	struct ring_buffer_event *event;
	u32 n = 0;

	while ((event = ring_buffer_consume(b, cpu, NULL, NULL))) {
		struct rbs_rec *r = ring_buffer_event_data(event);

		if (!rbs_intact(cpu, event, "exact fill") || r->seq != n) {
			rbs_fail("exact fill %u: record %u is seq %u\n",
				 nr, n, r->seq);
			break;
		}
		n++;
	}
	return n;
}

/* trace_pipe_raw's read(): a page at a time, not waiting for a full one */
static u32 rbs_exact_read_page(struct trace_buffer *b, int cpu, u32 nr)
{
	rbs_read_pages(b, cpu, 2 * nr, 0, "exact fill");
	return ring_buffer_read_events_cpu(b, cpu);
}

static u32 rbs_exact_iterate(struct trace_buffer *b, int cpu, u32 nr)
{
	struct ring_buffer_iter *iter;
	s64 last;
	u32 n;

	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (!iter) {
		rbs_fail("exact fill: no iterator\n");
		return 0;
	}
	n = rbs_iter_read_seq(iter, cpu, 0, 2 * nr, &last, "exact fill");
	ring_buffer_read_finish(iter);
	return n;
}

/* A resize first, which carries the records over, then trace_pipe */
static u32 rbs_exact_resize(struct trace_buffer *b, int cpu, u32 nr)
{
	if (ring_buffer_resize(b, RBS_PAGES(6), cpu)) {
		rbs_fail("exact fill %u: resize failed\n", nr);
		return 0;
	}
	return rbs_exact_consume(b, cpu, nr);
}

static const struct {
	const char *name;
	u32 (*read)(struct trace_buffer *b, int cpu, u32 nr);
	bool consumes;
} rbs_exact_readers[] = {
	{ "consume",	rbs_exact_consume,	true },
	{ "read_page",	rbs_exact_read_page,	true },
	{ "iterator",	rbs_exact_iterate,	false },
	{ "resize",	rbs_exact_resize,	true },
};

/*
 * Records that fill sub-buffers exactly, then nothing: the writers leave
 * the last one for the next writer to deliver, and none comes.  Every
 * record must still reach trace_pipe (consume), a read of trace_pipe_raw
 * that does not wait for a full page (read_page), "cat trace" (the
 * iterator), and a reader after a resize.  40-byte records, RBS_PER_PAGE
 * to a one-page sub-buffer: one sub-buffer of three, then all three (the
 * offset then sits at the unused index after the last one).  Written with
 * interrupts off so that no gap puts a time record in; if one did, the
 * fill would not be exact and the checks would still hold.
 */
static void rbs_admin_exact_fill_read(void)
{
	static const u32 fills[] = { RBS_PER_PAGE, 3 * RBS_PER_PAGE };
	int cpu, f, w, before = failures;
	struct trace_buffer *b;
	u32 nr, n;

	b = ring_buffer_alloc(RBS_PAGES(3), RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("exact fill: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	for (f = 0; f < ARRAY_SIZE(fills); f++) {
		nr = fills[f];
		for (w = 0; w < ARRAY_SIZE(rbs_exact_readers); w++) {
			const char *name = rbs_exact_readers[w].name;

			ring_buffer_reset_cpu(b, cpu);
			rbs_put_run(b, cpu, 0, nr, 12);
			if (ring_buffer_empty_cpu(b, cpu)) {
				rbs_fail("exact fill %u: the buffer says empty\n", nr);
				continue;
			}
			n = rbs_exact_readers[w].read(b, cpu, nr);
			if (n != nr)
				rbs_fail("exact fill %u, %s: %u records read\n",
					 nr, name, n);
			if (rbs_exact_readers[w].consumes &&
			    ring_buffer_entries_cpu(b, cpu))
				rbs_fail("exact fill %u, %s: %lu records left unread\n",
					 nr, name, ring_buffer_entries_cpu(b, cpu));
		}
		ring_buffer_resize(b, RBS_PAGES(3), cpu);
	}
	migrate_enable();
	if (failures == before)
		pr_info("exact fill: every record read, by every reader, after a resize too\n");
	ring_buffer_free(b);
}

/*
 * Discard mode: 40-byte records until a write is refused (three one-page
 * sub-buffers, all unread), a read of trace_pipe_raw takes the first,
 * then 44-byte records until a write is refused again.  That one closes
 * the first sub-buffer's next generation short of its end (by 32 bytes
 * with 4 KiB pages, 4 with 64 KiB): the
 * rest is padding over what the page held before, and the offset sits at
 * the sub-buffer's end, not past it, so no commit delivers it and, with no
 * writer after, readers read it whole.  Returns the records written,
 * numbered from 0; *@first: the first one not read.
 */
static u32 rbs_closed_fill(struct trace_buffer *b, int cpu, u32 *first)
{
	u32 seq;

	ring_buffer_reset_cpu(b, cpu);
	seq = rbs_put_run(b, cpu, 0, 10 * RBS_PER_PAGE, 12);
	if (!rbs_read_pages(b, cpu, 1, 0, "closed fill"))
		rbs_fail("closed fill: read_page got nothing\n");
	*first = ring_buffer_read_events_cpu(b, cpu);
	seq = rbs_put_run(b, cpu, seq, 20 * RBS_PER_PAGE, 16);
	if (ring_buffer_dropped_events_cpu(b, cpu) != 2)
		rbs_fail("closed fill: %lu writes refused, not 2\n",
			 ring_buffer_dropped_events_cpu(b, cpu));
	return seq;
}

/*
 * After rbs_closed_fill(), trace_pipe (consume), a read of trace_pipe_raw
 * (read_page) and "cat trace" (the iterator) must each get the records
 * not read yet, whole and in order, and nothing from the padding.
 */
static void rbs_admin_closed_fill_read(void)
{
	struct ring_buffer_event *event;
	struct ring_buffer_iter *iter;
	int cpu, before = failures;
	struct trace_buffer *b;
	u32 nr, first, n;
	s64 last;

	b = ring_buffer_alloc(RBS_PAGES(3), 0);
	if (!b) {
		rbs_fail("closed fill: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();

	nr = rbs_closed_fill(b, cpu, &first);
	for (n = first; (event = ring_buffer_consume(b, cpu, NULL, NULL)); n++) {
		struct rbs_rec *r = ring_buffer_event_data(event);

		if (!rbs_intact(cpu, event, "closed fill") || r->seq != n) {
			rbs_fail("closed fill, consume: record %u is seq %u\n",
				 n, r->seq);
			break;
		}
	}
	if (n != nr)
		rbs_fail("closed fill, consume: up to %u read, %u written\n", n, nr);

	nr = rbs_closed_fill(b, cpu, &first);
	if (rbs_read_pages(b, cpu, 8, 0, "closed fill") < 0)
		goto out;
	if (ring_buffer_read_events_cpu(b, cpu) != nr)
		rbs_fail("closed fill, read_page: %lu records read, %u written\n",
			 ring_buffer_read_events_cpu(b, cpu), nr);

	nr = rbs_closed_fill(b, cpu, &first);
	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (!iter) {
		rbs_fail("closed fill: no iterator\n");
		goto out;
	}
	n = rbs_iter_read_seq(iter, cpu, first, 2 * nr, &last, "closed fill");
	ring_buffer_read_finish(iter);
	if (n != nr - first || last != nr - 1)
		rbs_fail("closed fill, iterator: %u records, the last %lld, of %u to %u\n",
			 n, last, first, nr - 1);
	if (failures == before)
		pr_info("closed fill: %u records up to a closed sub-buffer's padding, read by every reader\n",
			nr - first);
 out:
	migrate_enable();
	ring_buffer_free(b);
}

/*
 * trace_pipe takes one record of a sub-buffer the writers are still in,
 * which leaves the reader a copy of its first ten; the writers then fill
 * two more.  A splice (read_page waiting for a whole page) must get the
 * rest of that copy now, as the page-based buffer gives the rest of a
 * partly read page once its commit page has moved on: refused, a blocking
 * splice finds the buffer full enough to wake for and nothing to take,
 * and loops in the kernel until trace_pipe reads again.
 */
static void rbs_admin_splice_after_pipe(void)
{
	int cpu, before = failures;
	struct trace_buffer *b;
	int got;

	b = ring_buffer_alloc(RBS_PAGES(4), RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("splice after trace_pipe: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	rbs_put_run(b, cpu, 0, 10, 12);
	if (!ring_buffer_consume(b, cpu, NULL, NULL))
		rbs_fail("splice after trace_pipe: trace_pipe got nothing\n");
	rbs_put_run(b, cpu, 10, 10 + 2 * RBS_PER_PAGE, 12);
	/*
	 * The rest: nine records here; the page-based buffer's writers
	 * went on filling the page trace_pipe took, so RBS_PER_PAGE - 1
	 * there.
	 */
	got = rbs_read_pages(b, cpu, 1, 1, "splice after trace_pipe");
	if (!got)
		rbs_fail("splice after trace_pipe: the rest of trace_pipe's page refused\n");
	else if (got > 0 && ring_buffer_read_events_cpu(b, cpu) < 10)
		rbs_fail("splice after trace_pipe: %lu records read\n",
			 ring_buffer_read_events_cpu(b, cpu));
	if (failures == before)
		pr_info("splice after trace_pipe: the rest of trace_pipe's page spliced, %lu records read\n",
			ring_buffer_read_events_cpu(b, cpu));
	migrate_enable();
	ring_buffer_free(b);
}

/*
 * The largest sub-buffers (order 7, mainline's limit: 512 KiB with 4 KiB
 * pages, 8 MiB with 64 KiB pages) filled with the smallest records (a
 * 4-byte payload, 8 bytes), in discard mode until a write is refused:
 * 65534 records to a sub-buffer with 4 KiB pages, 1048574 with 64 KiB.
 * The statistics count records through each sub-buffer's commit count,
 * which must hold that many: entries must say how many were written, and
 * trace_pipe must read them all, in order.
 */
static void rbs_admin_largest_subbuf(void)
{
	const int order = 7;
	const unsigned long sb_size = PAGE_SIZE << order;
	struct ring_buffer_event *event;
	struct trace_buffer *b;
	int cpu, before = failures;
	u32 seq, n;

	b = ring_buffer_alloc(2 * sb_size, 0);
	if (!b) {
		rbs_fail("largest sub-buffer: no buffer\n");
		return;
	}
	if (ring_buffer_subbuf_order_set(b, order)) {
		/* The page-based buffer has one-page sub-buffers only */
		pr_info("largest sub-buffer: no sub-buffers of order 7, skipped\n");
		ring_buffer_free(b);
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	for (seq = 0; !ring_buffer_write(b, sizeof(seq), &seq); seq++)
		if (!(seq & 0xfff))
			cond_resched();
	if (ring_buffer_entries_cpu(b, cpu) != seq)
		rbs_fail("largest sub-buffer: %u records written, entries says %lu\n",
			 seq, ring_buffer_entries_cpu(b, cpu));
	for (n = 0; (event = ring_buffer_consume(b, cpu, NULL, NULL)); n++) {
		u32 *v = ring_buffer_event_data(event);

		if (*v != n) {
			rbs_fail("largest sub-buffer: record %u is %u\n", n, *v);
			break;
		}
	}
	if (n != seq)
		rbs_fail("largest sub-buffer: %u records read of %u\n", n, seq);
	migrate_enable();
	if (failures == before)
		pr_info("largest sub-buffer: %u records of 8 bytes in %lu KiB sub-buffers, all counted and read\n",
			seq, sb_size >> 10);
	ring_buffer_free(b);
}

/*
 * trace_pipe prints the record ring_buffer_peek() returned after the
 * reader lock is dropped, then consumes it.  Meanwhile "echo > trace"
 * (reset) and buffer_size_kb (resize) may run: the page must stay the
 * reader's, not be written (reset) nor freed (resize).
 */
static void rbs_admin_reader_page(void)
{
	const u32 mark = 0x5a5a0000;
	struct ring_buffer_event *event;
	struct trace_buffer *b;
	u32 v, want, *data;
	unsigned long i, fill;
	int cpu, step, before = failures;

	b = ring_buffer_alloc(size_kb * 1024, RB_FL_OVERWRITE);
	if (!b) {
		rbs_fail("reader page: no buffer\n");
		return;
	}
	migrate_disable();
	cpu = smp_processor_id();
	for (step = 0; step < 2; step++) {
		while (ring_buffer_consume(b, cpu, NULL, NULL))
			;
		/*
		 * More than a page of 8-byte records (600 with 4 KiB
		 * pages): the peek swaps a whole sub-buffer out.
		 */
		for (v = mark; v < mark + PAGE_SIZE / 8 + 88; v++)
			ring_buffer_write(b, sizeof(v), &v);
		event = ring_buffer_peek(b, cpu, NULL, NULL);
		if (!event) {
			rbs_fail("reader page: nothing to peek\n");
			break;
		}
		data = ring_buffer_event_data(event);
		want = *data;
		if (step == 0) {
			ring_buffer_reset_cpu(b, cpu);
		} else {
			ring_buffer_resize(b, 2 * size_kb * 1024, cpu);
			if (!page_ref_count(virt_to_page(data))) {
				rbs_fail("reader page: freed by a resize\n");
				break;
			}
		}
		/* Wrap the buffer twice, whatever its pages */
		fill = 2 * ring_buffer_size(b, cpu) / 8;
		for (i = 0, v = 0xdeadbeef; i < fill; i++)
			ring_buffer_write(b, sizeof(v), &v);
		if (*data != want)
			rbs_fail("reader page: peeked record changed across a %s (%x, was %x)\n",
				 step ? "resize" : "reset", *data, want);
	}
	migrate_enable();
	if (failures == before)
		pr_info("reader page: kept across reset and resize\n");
	ring_buffer_free(b);
}

#if RBS_BURSTS
/*
 * A reader stopped where its page and its positions are out of step: in
 * rb_get_subbuf() between the page swap and the claim (RB_TEST_SWAPPED),
 * where its spare page is already in the ring slot of the sub-buffer it
 * takes; in ring_buffer_read_page() just after the caller's page took the
 * place of the reader's (RB_TEST_HANDED_OVER).  What can come in there on
 * its CPU: writers that push the reader past the sub-buffer it takes
 * (flight-recorder mode), and an NMI whose ftrace_dump() finds the reader
 * lock held and reads without it.  In a resize also an NMI on another CPU
 * (claim.other), which must wait for the lock while the resizing CPU runs
 * on (RBS_CLAIM_NMI_OTHER), and give up after a while if that CPU does
 * not, as a CPU a panic stopped (RBS_CLAIM_NMI_HELD).
 */
enum {
	RBS_CLAIM_NONE, RBS_CLAIM_PUSH, RBS_CLAIM_NMI,
	RBS_CLAIM_NMI_OTHER, RBS_CLAIM_NMI_HELD,
};

static struct {
	struct trace_buffer	*b;
	int			cpu;
	enum rb_test_point	point;
	int			armed;	/* what to run at the point, once */
	bool			ran;
	u32			seq;	/* the next record to write */
	u32			next;	/* the next record due to a reader */
	unsigned long		read, gaps, lost, nmi_read;
	int			other;	/* the CPU of an NMI_OTHER/HELD */
	bool			nmi_in;	/* that NMI came */
	bool			held;	/* RBS_CLAIM_NMI_HELD */
	u64			nmi_ns;	/* and took this long */
	u64			again_ns; /* its second read, if held */
} claim;

static void rbs_claim_counts_clear(void)
{
	claim.read = 0;
	claim.gaps = 0;
	claim.lost = 0;
	claim.nmi_read = 0;
	claim.nmi_ns = 0;
	claim.again_ns = 0;
}

/*
 * ftrace_dump()'s loop over CPU claim.cpu, for @max records at most.  A
 * record may follow a gap (records lost), never come again or out of
 * order: then a reader took a page that did not hold its sub-buffer.
 * Only the consumes that return nothing count against RBS_DUMP_LOOPS: a
 * case's buffer holds more records than that with 64 KiB pages.
 */
static unsigned long rbs_claim_read(const char *who, unsigned long max)
{
	struct ring_buffer_event *event;
	unsigned long lost, n = 0;
	int empty_handed = 0;

	while (n < max && empty_handed < RBS_DUMP_LOOPS &&
	       !ring_buffer_empty_cpu(claim.b, claim.cpu)) {
		struct rbs_rec *r;

		event = ring_buffer_consume(claim.b, claim.cpu, NULL, &lost);
		if (!event) {
			empty_handed++;
			continue;
		}
		r = ring_buffer_event_data(event);
		if (!rbs_intact(claim.cpu, event, who))
			break;
		if (r->seq < claim.next) {
			rbs_fail("claim window: the %s got record %u, %u was due\n",
				 who, r->seq, claim.next);
			break;
		}
		claim.gaps += r->seq - claim.next;
		claim.lost += lost;
		claim.next = r->seq + 1;
		n++;
	}
	claim.read += n;
	return n;
}

/* A read of trace_pipe_raw (a whole sub-buffer into *@page), checked */
static void rbs_claim_read_page(void **page, const char *who)
{
	unsigned long n = ring_buffer_read_events_cpu(claim.b, claim.cpu);
	struct ring_buffer_event *event;

	if (ring_buffer_read_page(claim.b, page,
				  ring_buffer_subbuf_size_get(claim.b),
				  claim.cpu, 1) < 0) {
		rbs_fail("claim window: the %s's read_page got nothing\n", who);
		return;
	}
	n = ring_buffer_read_events_cpu(claim.b, claim.cpu) - n;
	event = *page + BUF_PAGE_HDR_SIZE;
	if (!n || !rbs_intact(claim.cpu, event, who) ||
	    ((struct rbs_rec *)ring_buffer_event_data(event))->seq != claim.next) {
		rbs_fail("claim window: the %s's read_page does not begin with record %u\n",
			 who, claim.next);
		return;
	}
	claim.next += n;
	claim.read += n;
}

/* Writers on the reader's CPU until they push it (an overrun) */
static void rbs_claim_push(void)
{
	unsigned long over = ring_buffer_overrun_cpu(claim.b, claim.cpu);
	u32 limit = claim.seq + 4 * RBS_PER_PAGE;

	while (claim.seq < limit &&
	       ring_buffer_overrun_cpu(claim.b, claim.cpu) == over &&
	       !rbs_put(claim.b, claim.cpu, claim.seq, 12))
		claim.seq++;
	claim.ran = true;
}

#ifdef RBS_NMI
static void rbs_claim_nmi_read(struct rbs_cpu *c)
{
	claim.nmi_read += rbs_claim_read("NMI dump", ULONG_MAX);
}

/* An NMI on this CPU, and wait for it: it reads before the reader goes on */
static void rbs_claim_nmi(void)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs);
	long spin;

	rbs_nmi_dump_fn = rbs_claim_nmi_read;
	WRITE_ONCE(c->dump_pending, true);
	rbs_nmi_send(smp_processor_id());
	for (spin = 10000000; READ_ONCE(c->dump_pending) && spin; spin--)
		cpu_relax();
	claim.ran = !READ_ONCE(c->dump_pending);
	WRITE_ONCE(c->dump_pending, false);
}

/* The NMI on another CPU: it must wait for the lock, or give up in time */
static void rbs_claim_nmi_other_read(struct rbs_cpu *c)
{
	u64 t0 = local_clock();

	WRITE_ONCE(claim.nmi_in, true);
	claim.nmi_read += rbs_claim_read("NMI dump from another CPU", ULONG_MAX);
	claim.nmi_ns = local_clock() - t0;
	if (!claim.held)
		return;
	/* As ftrace_dump() takes the lock again for every record */
	t0 = local_clock();
	claim.nmi_read += rbs_claim_read("NMI dump from another CPU", ULONG_MAX);
	claim.again_ns = local_clock() - t0;
}

/* Whether the NMI on claim.other ended within @us microseconds */
static bool rbs_claim_nmi_other_ended(long us)
{
	struct rbs_cpu *o = per_cpu_ptr(&rbs, claim.other);

	for (; READ_ONCE(o->dump_pending) && us > 0; us--)
		udelay(1);
	return !READ_ONCE(o->dump_pending);
}

/*
 * An NMI on claim.other that reads CPU claim.cpu while this CPU holds its
 * reader lock.  @held: wait for the NMI to end, as if this CPU had been
 * stopped here; otherwise go on 2 ms after it came, as a running CPU
 * does.
 */
static void rbs_claim_nmi_other(bool held)
{
	struct rbs_cpu *o = per_cpu_ptr(&rbs, claim.other);
	long us;

	rbs_nmi_dump_fn = rbs_claim_nmi_other_read;
	claim.held = held;
	WRITE_ONCE(claim.nmi_in, false);
	WRITE_ONCE(o->dump_pending, true);
	rbs_nmi_send(claim.other);
	for (us = USEC_PER_SEC; !READ_ONCE(claim.nmi_in) && us; us--)
		udelay(1);
	claim.ran = READ_ONCE(claim.nmi_in);
	if (held)
		rbs_claim_nmi_other_ended(5 * USEC_PER_SEC);
	else
		mdelay(2);
}
#else
static void rbs_claim_nmi(void) { }
static void rbs_claim_nmi_other(bool held) { }
static bool rbs_claim_nmi_other_ended(long us) { return true; }
#endif

static void rbs_claim_hook(struct trace_buffer *b, int cpu,
			   enum rb_test_point where)
{
	int what;

	/*
	 * The case's CPU buffer, read on its own CPU; a change of every CPU's
	 * geometry passes RB_TEST_GEOMETRY once for each CPU buffer.
	 */
	if (where != claim.point || b != claim.b || cpu != claim.cpu ||
	    smp_processor_id() != claim.cpu)
		return;
	what = xchg(&claim.armed, RBS_CLAIM_NONE);
	switch (what) {
	case RBS_CLAIM_PUSH:
		rbs_claim_push();
		break;
	case RBS_CLAIM_NMI:
		rbs_claim_nmi();
		break;
	case RBS_CLAIM_NMI_OTHER:
	case RBS_CLAIM_NMI_HELD:
		rbs_claim_nmi_other(what == RBS_CLAIM_NMI_HELD);
		break;
	}
}

/* A case's buffer of four one-page sub-buffers, to stop at @point on this CPU */
static bool rbs_claim_begin(enum rb_test_point point, const char *name)
{
	claim.b = ring_buffer_alloc(RBS_PAGES(4), RB_FL_OVERWRITE);
	if (!claim.b) {
		rbs_fail("claim window, %s: no buffer\n", name);
		return false;
	}
	ring_buffer_set_test_hook(claim.b, rbs_claim_hook);
	claim.cpu = smp_processor_id();
	claim.point = point;
	claim.next = 0;
	rbs_claim_counts_clear();
	return true;
}

/*
 * One case: four one-page sub-buffers; the first filled and read, so
 * that the page the reader holds and the page the caller of read_page
 * holds have its old records; the next two filled and a record in the
 * fourth; then a read (of trace_pipe at RB_TEST_SWAPPED, of
 * trace_pipe_raw at RB_TEST_HANDED_OVER) whose claim of the second
 * sub-buffer runs @what at @point.  Every record after the first
 * sub-buffer must then be read once and in order, or be lost, counted as
 * overrun and reported to the reader.
 */
static void rbs_claim_case(enum rb_test_point point, int what, const char *name)
{
	bool raw = point == RB_TEST_HANDED_OVER;
	int before = failures;
	unsigned long over;
	void *page = NULL;
	u32 seq;

	if (!rbs_claim_begin(point, name))
		return;
	seq = rbs_put_run(claim.b, claim.cpu, 0, RBS_PER_PAGE + 1, 12);
	if (raw) {
		page = ring_buffer_alloc_read_page(claim.b, claim.cpu);
		if (IS_ERR_OR_NULL(page)) {
			rbs_fail("claim window, %s: no read page\n", name);
			page = NULL;
			goto out;
		}
		rbs_claim_read_page(&page, "first reader");
	} else {
		rbs_claim_read("first reader", RBS_PER_PAGE);
	}
	if (claim.next != RBS_PER_PAGE || claim.gaps) {
		rbs_fail("claim window, %s: the first sub-buffer read up to %u\n",
			 name, claim.next);
		goto out;
	}

	claim.seq = rbs_put_run(claim.b, claim.cpu, seq, 3 * RBS_PER_PAGE + 1, 12);
	claim.ran = false;
	rbs_claim_counts_clear();
	WRITE_ONCE(claim.armed, what);
	if (raw)
		rbs_claim_read_page(&page, "reader");
	rbs_claim_read("reader", ULONG_MAX);
	WRITE_ONCE(claim.armed, RBS_CLAIM_NONE);

	over = ring_buffer_overrun_cpu(claim.b, claim.cpu);
	if (!claim.ran)
		rbs_fail("claim window, %s: not reached\n", name);
	if (claim.next != claim.seq)
		rbs_fail("claim window, %s: last record read %u, the last written %u\n",
			 name, claim.next - 1, claim.seq - 1);
	if (claim.gaps != over || claim.lost != over)
		rbs_fail("claim window, %s: %lu never read, %lu reported lost, %lu overrun\n",
			 name, claim.gaps, claim.lost, over);
	if (what == RBS_CLAIM_PUSH && !over)
		rbs_fail("claim window, %s: the writers did not push the reader\n",
			 name);
	/* Read without the lock: the CPU buffer stops for good */
	if (what == RBS_CLAIM_NMI && claim.ran &&
	    !rbs_put(claim.b, claim.cpu, claim.seq, 12))
		rbs_fail("claim window, %s: the NMI read with the lock held under it\n",
			 name);
	if (failures == before)
		pr_info("claim window, %s: %lu records read (%lu in the NMI), %lu lost, counted as overrun and reported\n",
			name, claim.read, claim.nmi_read, over);
 out:
	if (page)
		ring_buffer_free_read_page(claim.b, claim.cpu, page);
	ring_buffer_free(claim.b);
	claim.b = NULL;
}

/*
 * A change of geometry stopped between the new ring and the positions
 * that go with it (RB_TEST_GEOMETRY), with a reader halfway through the
 * first sub-buffer: a resize of CPU claim.cpu from four sub-buffers to
 * eight, which carries the records over, or a change of the sub-buffer
 * size, which discards them.  An NMI dump there finds the reader lock
 * held: @what, on this CPU (RBS_CLAIM_NMI) or on another.  It must not
 * read a record twice or out of order; after a resize the reader must
 * read every record it had not read, in order.  An NMI on this CPU finds
 * nothing to read in a ring being moved.  An NMI on another CPU reads
 * with the lock once the resize lets it go, and only if this CPU keeps
 * it (as if stopped) without it, finding nothing.
 */
static void rbs_geometry_case(bool resize, int what, const char *name)
{
	int before = failures;
	unsigned long over;
	int err, stopped;

	if (!rbs_claim_begin(RB_TEST_GEOMETRY, name))
		return;
	claim.seq = rbs_put_run(claim.b, claim.cpu, 0, 3 * RBS_PER_PAGE, 12);
	rbs_claim_read("first reader", RBS_PER_PAGE / 2);
	if (claim.next != RBS_PER_PAGE / 2 || claim.gaps) {
		rbs_fail("claim window, %s: the first reader read up to %u\n",
			 name, claim.next);
		goto out;
	}

	claim.ran = false;
	rbs_claim_counts_clear();
	WRITE_ONCE(claim.armed, what);
	if (resize)
		err = ring_buffer_resize(claim.b, RBS_PAGES(8), claim.cpu);
	else
		err = ring_buffer_subbuf_order_set(claim.b, 1);
	WRITE_ONCE(claim.armed, RBS_CLAIM_NONE);
	if (what != RBS_CLAIM_NMI && !rbs_claim_nmi_other_ended(10 * USEC_PER_SEC)) {
		/* It may still read the buffer: leave it be */
		rbs_fail("claim window, %s: the NMI on CPU %d did not end\n",
			 name, claim.other);
		claim.b = NULL;
		return;
	}
	if (err) {
		rbs_fail("claim window, %s: failed (%d)\n", name, err);
		goto out;
	}
	if (!claim.ran)
		rbs_fail("claim window, %s: not reached\n", name);
	if (resize) {
		rbs_claim_read("reader", ULONG_MAX);
		over = ring_buffer_overrun_cpu(claim.b, claim.cpu);
		if (claim.next != claim.seq)
			rbs_fail("claim window, %s: last record read %u, the last written %u\n",
				 name, claim.next - 1, claim.seq - 1);
		if (claim.gaps || claim.lost || over)
			rbs_fail("claim window, %s: %lu never read, %lu lost, %lu overrun\n",
				 name, claim.gaps, claim.lost, over);
	} else if (!ring_buffer_empty_cpu(claim.b, claim.cpu)) {
		rbs_fail("claim window, %s: records left after the change\n", name);
	}
	if (what == RBS_CLAIM_NMI && claim.nmi_read)
		rbs_fail("claim window, %s: the NMI read %lu records of the ring being moved\n",
			 name, claim.nmi_read);
	/* Read without the lock: the CPU buffer stops for good */
	stopped = rbs_put(claim.b, claim.cpu, claim.seq, 12);
	if (what == RBS_CLAIM_NMI_OTHER && stopped)
		rbs_fail("claim window, %s: the NMI read without the lock beside a live resize\n",
			 name);
	if (what == RBS_CLAIM_NMI_HELD && (!stopped || claim.nmi_read))
		rbs_fail("claim window, %s: the NMI read %lu records, %s the lock\n",
			 name, claim.nmi_read, stopped ? "without" : "with");
	if (what == RBS_CLAIM_NMI_HELD && claim.again_ns * 2 >= claim.nmi_ns)
		rbs_fail("claim window, %s: the NMI waited twice (%llu us, then %llu us)\n",
			 name, div_u64(claim.nmi_ns, NSEC_PER_USEC),
			 div_u64(claim.again_ns, NSEC_PER_USEC));
	if (failures == before && what == RBS_CLAIM_NMI)
		pr_info("claim window, %s: %lu records read (%lu in the NMI)\n",
			name, claim.read, claim.nmi_read);
	else if (failures == before)
		pr_info("claim window, %s: %lu records read (%lu in the NMI on CPU %d, %llu us, a second read %llu us), %s\n",
			name, claim.read, claim.nmi_read, claim.other,
			div_u64(claim.nmi_ns, NSEC_PER_USEC),
			div_u64(claim.again_ns, NSEC_PER_USEC),
			stopped ? "without the lock, CPU buffer stopped" : "with the lock");
 out:
	ring_buffer_free(claim.b);
	claim.b = NULL;
}

/*
 * The sub-buffer size case on the last CPU: a change of every CPU's
 * geometry passes RB_TEST_GEOMETRY for the CPUs before it first, and the
 * case must stop at its own CPU buffer's pass.
 */
static int rbs_geometry_last_cpu(void *unused)
{
	migrate_disable();
	rbs_geometry_case(false, RBS_CLAIM_NMI,
			  "NMI dump in a sub-buffer size change, last CPU");
	migrate_enable();
	return 0;
}

static void rbs_admin_claim_window(void)
{
	unsigned int last = cpumask_last(cpu_online_mask);

	migrate_disable();
	rbs_claim_case(RB_TEST_SWAPPED, RBS_CLAIM_PUSH, "writers between swap and claim");
	if (rbs_nmi) {
		rbs_claim_case(RB_TEST_SWAPPED, RBS_CLAIM_NMI,
			       "NMI dump between swap and claim");
		rbs_claim_case(RB_TEST_HANDED_OVER, RBS_CLAIM_NMI,
			       "NMI dump in a read_page handover");
		rbs_geometry_case(true, RBS_CLAIM_NMI, "NMI dump in a resize");
		rbs_geometry_case(false, RBS_CLAIM_NMI,
				  "NMI dump in a sub-buffer size change");
		if (last != cpumask_first(cpu_online_mask))
			smp_call_on_cpu(last, rbs_geometry_last_cpu, NULL, false);
		else
			pr_info("claim window, NMI dump in a sub-buffer size change, last CPU: one CPU (skipped)\n");
		claim.other = cpumask_any_but(cpu_online_mask, smp_processor_id());
		if (claim.other < nr_cpu_ids) {
			rbs_geometry_case(true, RBS_CLAIM_NMI_OTHER,
					  "NMI dump from another CPU in a resize");
			rbs_geometry_case(true, RBS_CLAIM_NMI_HELD,
					  "NMI dump from another CPU in a resize that stops");
		} else {
			pr_info("claim window, NMI dumps from another CPU: one CPU (skipped)\n");
		}
	} else {
		pr_info("claim window, NMI dumps: no NMI source (skipped)\n");
	}
	migrate_enable();
}
#else
static void rbs_admin_claim_window(void)
{
	pr_info("claim window: no reader test points in this kernel (skipped)\n");
}
#endif

static int rbs_admin(void)
{
	int before = failures;

	rbs_admin_nested_read();
	rbs_admin_nmi_dump();
	rbs_admin_claim_window();
	rbs_admin_swap();
	rbs_admin_reader_page();
	rbs_admin_iter_reset();
	rbs_admin_iter_exact_fill();
	rbs_admin_iter_ahead();
	rbs_admin_exact_fill_read();
	rbs_admin_closed_fill_read();
	rbs_admin_splice_after_pipe();
	rbs_admin_largest_subbuf();
	return failures == before ? 0 : -EIO;
}

static int __init rbs_init(void)
{
	int ret;

	if (!run && !admin)
		return 0;
	ret = rbs_nmi_init();
	if (ret)
		return ret;
	ret = admin ? rbs_admin() : 0;
	if (!ret && run)
		ret = rbs_run(RBS_OVERWRITE);
	if (!ret && run)
		ret = rbs_run(RBS_DISCARD);
	if (!ret && run)
		ret = rbs_run(RBS_ITERATED);
	if (!ret && run)
		ret = rbs_run(RBS_BESIDE);
	rbs_nmi_exit();
	if (!ret && failures)
		ret = -EIO;
	pr_info("%s (sub-buffers of %lu KiB)\n", ret ? "FAILED" : "PASSED",
		(PAGE_SIZE << subbuf_order) >> 10);
	return ret;
}

static void __exit rbs_exit(void)
{
}

module_init(rbs_init);
module_exit(rbs_exit);
MODULE_DESCRIPTION("Ring buffer stress test: nested writers of every context");
MODULE_LICENSE("GPL");
