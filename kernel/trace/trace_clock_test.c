// SPDX-License-Identifier: GPL-2.0
/*
 * Tests and benchmarks of the trace clocks.
 *
 * modprobe trace_clock_test [test=1] [bench=LOOPS]
 *
 * test=1 checks the guarantee of trace_clock_global() (see trace_clock.c):
 *  - ping-pong: two threads on two CPUs take turns, each reading the clock
 *    after seeing the other's turn end, and each time must be >= the time
 *    the other read before its turn ended;
 *  - NMI (x86): a CPU reads the clock, then sends an NMI to a CPU (itself
 *    included) whose handler reads the clock: the handler's time must be
 *    >= the sender's, and >= the last time the interrupted CPU's own
 *    clock-reading loop completed.
 * Loading fails with -EINVAL when a time goes backwards.
 *
 * bench=LOOPS times LOOPS calls per CPU, with interrupts off, on one CPU and
 * on all CPUs at once, of trace_clock_local(), trace_clock_global() and the
 * global clock of Linux 6.1 (kept here for comparison).
 * Results go to the kernel log, one line each:
 *   trace_clock_test: bench <what> cpus=<n> ns_per_call=<mean over CPUs>
 */
#define pr_fmt(fmt) "trace_clock_test: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/trace_clock.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <linux/nmi.h>
#endif

static bool test;
module_param(test, bool, 0444);
MODULE_PARM_DESC(test, "Check the guarantee of the global clock");
static uint bench;
module_param(bench, uint, 0444);
MODULE_PARM_DESC(bench, "Benchmark the clocks with this many calls per CPU");
static uint pingpong_rounds = 20000;
module_param(pingpong_rounds, uint, 0444);
static uint nmi_rounds = 2000;
module_param(nmi_rounds, uint, 0444);

static atomic_t failures;

#define tct_fail(fmt, ...)					\
	do {							\
		if (atomic_inc_return(&failures) <= 10)		\
			pr_err("FAIL: " fmt, ##__VA_ARGS__);	\
	} while (0)

/* Run fn(i) on each CPU of mask in a kthread of its own, all at once. */
struct tct_thread {
	int (*fn)(unsigned int idx);
	unsigned int idx;
	int ret;
	struct completion done;
};

static atomic_t tct_ready;
static unsigned int tct_nthreads;

static int tct_thread_fn(void *arg)
{
	struct tct_thread *t = arg;

	/* Start together: wait until every thread runs. */
	atomic_inc(&tct_ready);
	while (atomic_read(&tct_ready) < tct_nthreads)
		cpu_relax();
	t->ret = t->fn(t->idx);
	complete(&t->done);
	return 0;
}

static int tct_run_on(const struct cpumask *mask, int (*fn)(unsigned int idx))
{
	struct tct_thread *threads;
	struct task_struct *tsk;
	unsigned int n = 0, i;
	int cpu, ret = 0;

	threads = kcalloc(cpumask_weight(mask), sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	atomic_set(&tct_ready, 0);
	tct_nthreads = cpumask_weight(mask);
	for_each_cpu(cpu, mask) {
		threads[n].fn = fn;
		threads[n].idx = n;
		init_completion(&threads[n].done);
		tsk = kthread_create_on_cpu(tct_thread_fn, &threads[n], cpu, "tct/%u");
		if (IS_ERR(tsk)) {
			/* Let the started ones through their start barrier. */
			atomic_add(tct_nthreads - n, &tct_ready);
			ret = PTR_ERR(tsk);
			break;
		}
		wake_up_process(tsk);
		n++;
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&threads[i].done);
		if (threads[i].ret)
			ret = threads[i].ret;
	}
	kfree(threads);
	return ret;
}

/* --- ping-pong --- */

static atomic_t pp_turn;
static u64 pp_time;

static int pingpong_fn(unsigned int idx)
{
	unsigned long timeout = jiffies + 30 * HZ;
	unsigned int i;
	u64 now, before;

	for (i = idx; i < pingpong_rounds; i += 2) {
		/* Pairs with the atomic_set_release() that ends the other turn. */
		while (atomic_read_acquire(&pp_turn) != i) {
			if (time_after(jiffies, timeout)) {
				tct_fail("ping-pong stalled at turn %u\n", i);
				return -ETIMEDOUT;
			}
			cpu_relax();
		}
		before = READ_ONCE(pp_time);
		now = trace_clock_global();
		if ((s64)(now - before) < 0)
			tct_fail("ping-pong turn %u on CPU %d: %llu < %llu of the turn before\n",
				 i, raw_smp_processor_id(), now, before);
		WRITE_ONCE(pp_time, now);
		atomic_set_release(&pp_turn, i + 1);
	}
	return 0;
}

static void test_pingpong(void)
{
	cpumask_var_t mask;
	int cpu;

	if (num_online_cpus() < 2) {
		pr_info("ping-pong: needs 2 CPUs, skipped\n");
		return;
	}
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return;
	/* The first online CPU against each of the others. */
	for_each_online_cpu(cpu) {
		if (cpu == cpumask_first(cpu_online_mask))
			continue;
		cpumask_clear(mask);
		cpumask_set_cpu(cpumask_first(cpu_online_mask), mask);
		cpumask_set_cpu(cpu, mask);
		atomic_set(&pp_turn, 0);
		pp_time = 0;
		tct_run_on(mask, pingpong_fn);
		pr_info("ping-pong CPU %d <-> CPU %d: %u turns\n",
			cpumask_first(cpu_online_mask), cpu, pingpong_rounds);
	}
	free_cpumask_var(mask);
}

/* --- NMI --- */

#ifdef CONFIG_X86_LOCAL_APIC
static DEFINE_PER_CPU(int, nmi_pending);
static DEFINE_PER_CPU(u64, loop_done_time);
static DEFINE_PER_CPU(unsigned long, nmi_seen);
static u64 nmi_sent_time;
static bool nmi_loop_stop;

static int tct_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	u64 now, sent, done;

	if (!this_cpu_read(nmi_pending))
		return NMI_DONE;
	/* Pairs with the smp_mb() of the sender before its IPI. */
	smp_rmb();
	sent = READ_ONCE(nmi_sent_time);
	done = this_cpu_read(loop_done_time);
	now = trace_clock_global();
	if ((s64)(now - sent) < 0)
		tct_fail("NMI on CPU %d: %llu < %llu read by the sender\n",
			 raw_smp_processor_id(), now, sent);
	if ((s64)(now - done) < 0)
		tct_fail("NMI on CPU %d: %llu < %llu of the interrupted loop\n",
			 raw_smp_processor_id(), now, done);
	this_cpu_inc(nmi_seen);
	this_cpu_write(nmi_pending, 0);
	return NMI_HANDLED;
}

/* Thread 0 sends NMIs; the others read the clock until told to stop. */
static int nmi_fn(unsigned int idx)
{
	unsigned long timeout;
	unsigned int i;
	int cpu, target;
	u64 now, last = 0;

	if (idx) {
		while (!READ_ONCE(nmi_loop_stop)) {
			now = trace_clock_global();
			if ((s64)(now - last) < 0)
				tct_fail("CPU %d loop: %llu < %llu\n",
					 raw_smp_processor_id(), now, last);
			last = now;
			this_cpu_write(loop_done_time, now);
			cond_resched();
		}
		return 0;
	}

	cpu = raw_smp_processor_id();
	target = cpu;
	for (i = 0; i < nmi_rounds; i++) {
		/* Alternate between this CPU and the next one. */
		target = (i & 1) ? cpumask_next(cpu, cpu_online_mask) : cpu;
		if (target >= nr_cpu_ids)
			target = cpu;
		per_cpu(nmi_pending, target) = 1;
		WRITE_ONCE(nmi_sent_time, trace_clock_global());
		/* The handler must see the pending mark and the time. */
		smp_mb();
		if (target == cpu)
			apic->send_IPI_self(NMI_VECTOR);
		else
			apic->send_IPI(target, NMI_VECTOR);
		timeout = jiffies + 5 * HZ;
		while (READ_ONCE(per_cpu(nmi_pending, target))) {
			if (time_after(jiffies, timeout)) {
				tct_fail("NMI %u to CPU %d not delivered\n", i, target);
				WRITE_ONCE(nmi_loop_stop, true);
				return -ETIMEDOUT;
			}
			cpu_relax();
		}
	}
	WRITE_ONCE(nmi_loop_stop, true);
	return 0;
}

static void test_nmi(void)
{
	unsigned long seen = 0;
	int ret, cpu;

	ret = register_nmi_handler(NMI_LOCAL, tct_nmi_handler, 0, "trace_clock_test");
	if (ret) {
		pr_info("NMI: cannot register a handler (%d), skipped\n", ret);
		return;
	}
	WRITE_ONCE(nmi_loop_stop, false);
	ret = tct_run_on(cpu_online_mask, nmi_fn);
	unregister_nmi_handler(NMI_LOCAL, "trace_clock_test");
	for_each_online_cpu(cpu)
		seen += per_cpu(nmi_seen, cpu);
	pr_info("NMI: %lu NMIs handled, %u sent\n", seen, nmi_rounds);
	if (!ret && seen < nmi_rounds)
		tct_fail("NMI: only %lu of %u NMIs seen\n", seen, nmi_rounds);
}
#else
static void test_nmi(void)
{
	pr_info("NMI: not on this architecture, skipped\n");
}
#endif

/* --- benchmarks --- */

/* The global clock of Linux 6.1, for comparison. */
static struct {
	u64 prev_time;
	arch_spinlock_t lock;
} old_clock ____cacheline_aligned_in_smp = {
	.lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED,
};

static u64 notrace old_trace_clock_global(void)
{
	unsigned long flags;
	u64 now, prev_time;

	raw_local_irq_save(flags);
	smp_rmb();	/* as in Linux 6.1 */
	prev_time = READ_ONCE(old_clock.prev_time);
	/*
	 * 6.1 reads sched_clock_cpu() of this CPU: trace_clock_local() is
	 * the same clock, and exported where sched_clock_cpu() is not
	 * (!CONFIG_HAVE_UNSTABLE_SCHED_CLOCK).
	 */
	now = trace_clock_local();
	if ((s64)(now - prev_time) < 0)
		now = prev_time;
	if (unlikely(in_nmi()))
		goto out;
	if (arch_spin_trylock(&old_clock.lock)) {
		prev_time = READ_ONCE(old_clock.prev_time);
		if ((s64)(now - prev_time) < 0)
			now = prev_time;
		old_clock.prev_time = now;
		arch_spin_unlock(&old_clock.lock);
	}
out:
	raw_local_irq_restore(flags);
	return now;
}

static const struct {
	const char *name;
	u64 (*fn)(void);
} bench_fns[] = {
	{ "local", trace_clock_local },
	{ "global", trace_clock_global },
	{ "global-6.1", old_trace_clock_global },
};

static unsigned int bench_which;
static u64 *bench_ns;

static int bench_fn(unsigned int idx)
{
	u64 (*fn)(void) = bench_fns[bench_which].fn;
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = trace_clock_local();
	for (i = 0; i < bench; i++)
		fn();
	t1 = trace_clock_local();
	local_irq_restore(flags);
	bench_ns[idx] = t1 - t0;
	return 0;
}

static void run_bench(void)
{
	cpumask_var_t one;
	const struct cpumask *masks[2];
	unsigned int w, m, i, n;
	u64 sum;

	if (!zalloc_cpumask_var(&one, GFP_KERNEL))
		return;
	cpumask_set_cpu(cpumask_first(cpu_online_mask), one);
	masks[0] = one;
	masks[1] = cpu_online_mask;
	bench_ns = kcalloc(nr_cpu_ids, sizeof(*bench_ns), GFP_KERNEL);
	if (!bench_ns)
		goto out;
	for (w = 0; w < ARRAY_SIZE(bench_fns); w++) {
		for (m = 0; m < 2; m++) {
			bench_which = w;
			n = cpumask_weight(masks[m]);
			/* A first pass warms the caches. */
			tct_run_on(masks[m], bench_fn);
			tct_run_on(masks[m], bench_fn);
			for (sum = 0, i = 0; i < n; i++)
				sum += bench_ns[i];
			pr_info("bench %s cpus=%u ns_per_call=%llu\n", bench_fns[w].name, n,
				div_u64(sum, n * bench));
		}
	}
	kfree(bench_ns);
out:
	free_cpumask_var(one);
}

static int __init trace_clock_test_init(void)
{
	if (test) {
		test_pingpong();
		test_nmi();
		pr_info("test: %s\n", atomic_read(&failures) ? "FAILED" : "PASSED");
	}
	if (bench)
		run_bench();
	return atomic_read(&failures) ? -EINVAL : 0;
}

static void __exit trace_clock_test_exit(void)
{
}

module_init(trace_clock_test_init);
module_exit(trace_clock_test_exit);
MODULE_DESCRIPTION("Tests and benchmarks of the trace clocks");
MODULE_LICENSE("GPL");
