// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer stress test: writers of every context on every CPU, nested
 * in each other, and a concurrent reader.
 *
 * On each CPU a kthread writes records in task context; a hrtimer writes
 * in hard interrupt context and schedules a tasklet that writes in
 * softirq context; on x86 the task writer sends NMIs to its own CPU and
 * the NMI handler writes too.  A reader thread consumes all CPUs while
 * they write.  Each record carries its CPU, context, a sequence number
 * per CPU and context, and a payload pattern.
 *
 * Checked, in flight-recorder and in discard mode: every record read is
 * intact and read once (sequence numbers strictly increase per CPU and
 * context), times never go backwards per CPU, and per CPU the records
 * read plus the overrun the buffer counts equal the records committed,
 * with the losses reported to the reader between those two bounds.
 *
 * Loaded with run=1 the module runs the test and fails to load if it
 * fails; the results are in the kernel log.
 */
#define pr_fmt(fmt) "ring_buffer_stress: " fmt

#include <linux/ring_buffer.h>
#include <linux/interrupt.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/slab.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

static bool run;
module_param(run, bool, 0444);
MODULE_PARM_DESC(run, "run the test at load time");

static uint seconds = 3;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "seconds of writing per mode");

static uint size_kb = 32;
module_param(size_kb, uint, 0444);
MODULE_PARM_DESC(size_kb, "buffer size per CPU (small, to force losses)");

enum { CTX_TASK, CTX_SOFTIRQ, CTX_IRQ, CTX_NMI, NR_CTX };
static const char * const ctx_name[NR_CTX] = { "task", "softirq", "irq", "nmi" };

#define RBS_MAGIC	0x72627374

struct rbs_rec {
	u32	magic;
	u8	ctx;
	u8	cpu;
	u16	len;
	u32	seq;
	u8	fill[];
};

struct rbs_cpu {
	u32			seq[NR_CTX];		/* next to write */
	unsigned long		committed[NR_CTX];
	unsigned long		failed[NR_CTX];
	bool			nmi_pending;
	struct hrtimer		timer;
	struct tasklet_struct	tasklet;
	struct task_struct	*thread;
	/* reader side */
	s64			last_seq[NR_CTX];
	unsigned long		read, lost, bad;
	u64			last_ts;
};

static DEFINE_PER_CPU(struct rbs_cpu, rbs);
static struct trace_buffer *buffer;
static bool stop_writing;
static int failures;

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
	u16 len, i;
	u32 seq;

	seq = c->seq[ctx];
	len = (seq * 13 + ctx * 7) % 150;
	event = ring_buffer_lock_reserve(buffer, sizeof(*r) + len);
	if (!event) {
		c->failed[ctx]++;
		return;
	}
	r = ring_buffer_event_data(event);
	r->magic = RBS_MAGIC;
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
	ring_buffer_unlock_commit(buffer, event);
	c->seq[ctx] = seq + 1;
	c->committed[ctx]++;
}

#ifdef CONFIG_X86_LOCAL_APIC
static int rbs_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs);

	if (!READ_ONCE(c->nmi_pending))
		return NMI_DONE;
	rbs_write(CTX_NMI, false);
	WRITE_ONCE(c->nmi_pending, false);
	return NMI_HANDLED;
}

static void rbs_send_nmi(struct rbs_cpu *c)
{
	if (READ_ONCE(c->nmi_pending))
		return;
	WRITE_ONCE(c->nmi_pending, true);
	apic->send_IPI_self(NMI_VECTOR);
}
#else
static void rbs_send_nmi(struct rbs_cpu *c) { }
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

static void rbs_check(int cpu, struct ring_buffer_event *event, u64 ts,
		      unsigned long lost)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
	struct rbs_rec *r = ring_buffer_event_data(event);
	u16 i;

	c->lost += lost;
	if (ts < c->last_ts)
		rbs_fail("cpu%d: time goes back %llu -> %llu\n", cpu, c->last_ts, ts);
	c->last_ts = ts;
	if (r->magic != RBS_MAGIC || r->ctx >= NR_CTX || r->cpu != cpu ||
	    ring_buffer_event_length(event) < sizeof(*r) + r->len) {
		rbs_fail("cpu%d: corrupt record header (magic %x ctx %u cpu %u len %u)\n",
			 cpu, r->magic, r->ctx, r->cpu, r->len);
		c->bad++;
		return;
	}
	for (i = 0; i < r->len; i++) {
		if (r->fill[i] != (u8)(r->seq + i)) {
			rbs_fail("cpu%d %s seq %u: payload byte %u corrupt\n",
				 cpu, ctx_name[r->ctx], r->seq, i);
			c->bad++;
			return;
		}
	}
	if ((s64)r->seq <= c->last_seq[r->ctx])
		rbs_fail("cpu%d %s: seq %u after %lld: read twice or out of order\n",
			 cpu, ctx_name[r->ctx], r->seq, c->last_seq[r->ctx]);
	c->last_seq[r->ctx] = r->seq;
	c->read++;
}

static int rbs_drain(void)
{
	struct ring_buffer_event *event;
	unsigned long lost;
	int cpu, n = 0;
	u64 ts;

	for_each_online_cpu(cpu) {
		while ((event = ring_buffer_consume(buffer, cpu, &ts, &lost))) {
			rbs_check(cpu, event, ts, lost);
			n++;
		}
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

static int rbs_run(bool overwrite)
{
	struct task_struct *reader;
	int cpu, ctx, ret = 0;

	buffer = ring_buffer_alloc(size_kb * 1024, overwrite ? RB_FL_OVERWRITE : 0);
	if (!buffer)
		return -ENOMEM;

	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);

		memset(c, 0, sizeof(*c));
		for (ctx = 0; ctx < NR_CTX; ctx++)
			c->last_seq[ctx] = -1;
		hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
		c->timer.function = rbs_timer;
		tasklet_setup(&c->tasklet, rbs_tasklet);
	}
	WRITE_ONCE(stop_writing, false);
	reader = kthread_run(rbs_reader, NULL, "rbs_reader");
	if (IS_ERR(reader)) {
		ret = PTR_ERR(reader);
		goto out;
	}
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
	rbs_drain();
	if (ret)
		goto out;

	for_each_online_cpu(cpu) {
		struct rbs_cpu *c = per_cpu_ptr(&rbs, cpu);
		unsigned long committed = 0, failed = 0;
		unsigned long over = ring_buffer_overrun_cpu(buffer, cpu);
		unsigned long drop = ring_buffer_dropped_events_cpu(buffer, cpu);
		unsigned long cover = ring_buffer_commit_overrun_cpu(buffer, cpu);

		for (ctx = 0; ctx < NR_CTX; ctx++) {
			committed += c->committed[ctx];
			failed += c->failed[ctx];
		}
		pr_info("%s cpu%d: committed task %lu softirq %lu irq %lu nmi %lu, failed %lu; read %lu, lost reported %lu; overrun %lu, dropped %lu, commit overrun %lu\n",
			overwrite ? "overwrite" : "discard", cpu,
			c->committed[CTX_TASK], c->committed[CTX_SOFTIRQ],
			c->committed[CTX_IRQ], c->committed[CTX_NMI], failed,
			c->read, c->lost, over, drop, cover);
		if (c->read + c->bad + over != committed)
			rbs_fail("cpu%d: read %lu + overrun %lu != committed %lu\n",
				 cpu, c->read + c->bad, over, committed);
		if (drop + cover > failed)
			rbs_fail("cpu%d: %lu counted lost at write, only %lu writes failed\n",
				 cpu, drop + cover, failed);
		if (c->lost < over || c->lost > over + drop + cover)
			rbs_fail("cpu%d: %lu reported lost, not within overrun %lu .. %lu\n",
				 cpu, c->lost, over, over + drop + cover);
		if (overwrite && drop)
			rbs_fail("cpu%d: dropped events in overwrite mode\n", cpu);
		if (!overwrite && over)
			rbs_fail("cpu%d: overrun in discard mode\n", cpu);
		if (!c->committed[CTX_TASK] || !c->committed[CTX_IRQ] ||
		    !c->committed[CTX_SOFTIRQ] ||
		    (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && !c->committed[CTX_NMI]))
			rbs_fail("cpu%d: a context wrote nothing\n", cpu);
	}
 out:
	ring_buffer_free(buffer);
	buffer = NULL;
	return ret;
}

static int __init rbs_init(void)
{
	int ret;

	if (!run)
		return 0;
#ifdef CONFIG_X86_LOCAL_APIC
	ret = register_nmi_handler(NMI_LOCAL, rbs_nmi_handler, 0, "rbs");
	if (ret)
		return ret;
#endif
	ret = rbs_run(true);
	if (!ret)
		ret = rbs_run(false);
#ifdef CONFIG_X86_LOCAL_APIC
	unregister_nmi_handler(NMI_LOCAL, "rbs");
#endif
	if (!ret && failures)
		ret = -EIO;
	pr_info("%s\n", ret ? "FAILED" : "PASSED");
	return ret;
}

static void __exit rbs_exit(void)
{
}

module_init(rbs_init);
module_exit(rbs_exit);
MODULE_DESCRIPTION("Ring buffer stress test: nested writers of every context");
MODULE_LICENSE("GPL");
