// SPDX-License-Identifier: GPL-2.0
/*
 * Cost and throughput of one trace event, driven through sysfs.
 *
 * The event trace_event_bench:teb_event has a 4-byte payload, the event
 * of the tracer comparison by Gebai and Dagenais ("Survey and analysis of
 * kernel and userspace tracers on Linux", ACM Computing Surveys 51(2),
 * 2018).  Buffer size, overwrite mode and trace_clock are chosen through
 * tracefs as for any event; this module only calls the tracepoint.  Its
 * files are in /sys/module/trace_event_bench/parameters/:
 *
 * run (write 1): time @samples calls per CPU of the tracepoint, each one
 *   alone between two reads of the finest clock there is (the TSC in
 *   program order on x86, else the local trace clock), with interrupts
 *   off, on the first online CPU (@all_cpus = 0) or on every online CPU
 *   at once.  A warm-up pass of @warmup calls comes first, so that a
 *   buffer in overwrite mode is full when sampling starts.  A sample
 *   during which an NMI came in (counted on x86), or longer than @max_ns
 *   (the host preempted the virtual CPU, or an SMI), is not kept but
 *   counted.  Reading "run" gives the last result, in ns:
 *     cpus= samples= kept= nmi= long= mean= std= min= p50= p90= p99= max= clock=
 *   With the event disabled the same run measures the floor: two clock
 *   reads and a tracepoint whose static key is off.
 * rate (write N): one writer thread per online CPU calls the tracepoint
 *   N times a second (a burst every millisecond; a writer that cannot keep
 *   up writes without pause); writing 0 stops them.
 * written (read): tracepoint calls made by the rate writers since they
 *   were started: with the event enabled, records read plus records lost.
 */
#define pr_fmt(fmt) "trace_event_bench: " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/trace_clock.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/hardirq.h>
#include <asm/tsc.h>
#endif

#define CREATE_TRACE_POINTS
#include "trace_event_bench.h"

/* Samples up to this many ns are kept exactly, for the percentiles. */
#define TEB_HIST_NS	8192
/* Samples timed with interrupts off in one go. */
#define TEB_CHUNK	1024

static uint samples = 100000;
module_param(samples, uint, 0644);
MODULE_PARM_DESC(samples, "Calls timed per CPU by a run");
static uint warmup = 100000;
module_param(warmup, uint, 0644);
MODULE_PARM_DESC(warmup, "Untimed calls per CPU before sampling");
static bool all_cpus;
module_param(all_cpus, bool, 0644);
MODULE_PARM_DESC(all_cpus, "Run on every online CPU at once");
static uint max_ns = 20000;
module_param(max_ns, uint, 0644);
MODULE_PARM_DESC(max_ns, "Longer samples are discarded as preempted");

static DEFINE_MUTEX(teb_mutex);

/* ---- the clock and the NMI count ---- */

#ifdef CONFIG_X86
static bool teb_tsc;
static u32 teb_mult;		/* ns = cycles * teb_mult >> TEB_SHIFT */
#define TEB_SHIFT	22

static __always_inline u64 teb_clock(void)
{
	return teb_tsc ? rdtsc_ordered() : trace_clock_local();
}

static u64 teb_to_ns(u64 t)
{
	return teb_tsc ? (t * teb_mult) >> TEB_SHIFT : t;
}

static void teb_clock_init(void)
{
	teb_tsc = boot_cpu_has(X86_FEATURE_TSC) && tsc_khz;
	if (teb_tsc)
		teb_mult = div_u64((u64)NSEC_PER_MSEC << TEB_SHIFT, tsc_khz);
}

static __always_inline unsigned int teb_nmis(void)
{
	return this_cpu_read(irq_stat.__nmi_count);
}

static const char *teb_clock_name(void)
{
	return teb_tsc ? "tsc" : "local";
}

#define TEB_NMI_COUNTED	true
#else
static __always_inline u64 teb_clock(void)
{
	return trace_clock_local();
}

static u64 teb_to_ns(u64 t)
{
	return t;
}

static void teb_clock_init(void) { }

static __always_inline unsigned int teb_nmis(void)
{
	return 0;
}

static const char *teb_clock_name(void)
{
	return "local";
}

#define TEB_NMI_COUNTED	false
#endif

/* ---- the latency run ---- */

struct teb_stats {
	u64		kept;
	u64		sum;
	u64		sumsq;
	u64		min;
	u64		max;
	u64		nmi;
	u64		long_;
	u32		hist[TEB_HIST_NS + 1];	/* the last: longer */
};

struct teb_worker {
	struct teb_stats	*st;
	struct completion	done;
};

static atomic_t teb_started;
static unsigned int teb_nworkers;
static char teb_result[256] = "none\n";

static __always_inline void teb_sample(struct teb_stats *st, u32 seq)
{
	unsigned int nmi = teb_nmis();
	u64 t0, t1, ns;

	t0 = teb_clock();
	trace_teb_event(seq);
	t1 = teb_clock();
	if (unlikely(teb_nmis() != nmi)) {
		st->nmi++;
		return;
	}
	ns = teb_to_ns(t1 - t0);
	if (unlikely(ns > max_ns)) {
		st->long_++;
		return;
	}
	st->kept++;
	st->sum += ns;
	st->sumsq += ns * ns;
	st->min = min(st->min, ns);
	st->max = max(st->max, ns);
	st->hist[min_t(u64, ns, TEB_HIST_NS)]++;
}

static int teb_worker_fn(void *arg)
{
	struct teb_worker *w = arg;
	unsigned long flags;
	unsigned int i, j;

	for (i = 0; i < warmup; i++) {
		trace_teb_event(i);
		if (!(i % TEB_CHUNK))
			cond_resched();
	}
	/* Sample at the same time on every CPU of the run */
	atomic_inc(&teb_started);
	while (atomic_read(&teb_started) < teb_nworkers)
		cpu_relax();

	for (i = 0; i < samples; i += TEB_CHUNK) {
		local_irq_save(flags);
		for (j = i; j < min(samples, i + TEB_CHUNK); j++)
			teb_sample(w->st, j);
		local_irq_restore(flags);
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/* Samples of the merged histogram below which @pct percent lie. */
static u64 teb_percentile(const struct teb_stats *st, unsigned int pct)
{
	u64 want = div_u64(st->kept * pct + 99, 100), seen = 0;
	unsigned int ns;

	for (ns = 0; ns <= TEB_HIST_NS; ns++) {
		seen += st->hist[ns];
		if (seen >= want && seen)
			return ns;
	}
	return TEB_HIST_NS;
}

static void teb_merge(struct teb_stats *all, const struct teb_stats *st)
{
	unsigned int ns;

	all->kept += st->kept;
	all->sum += st->sum;
	all->sumsq += st->sumsq;
	all->min = min(all->min, st->min);
	all->max = max(all->max, st->max);
	all->nmi += st->nmi;
	all->long_ += st->long_;
	for (ns = 0; ns <= TEB_HIST_NS; ns++)
		all->hist[ns] += st->hist[ns];
}

static void teb_report(const struct teb_stats *all, unsigned int ncpus)
{
	u64 n = all->kept ?: 1;
	u64 mean10 = div64_u64(all->sum * 10, n);
	/* variance * 100 = sumsq * 100 / n - (mean * 10)^2 */
	u64 sq100 = div64_u64(all->sumsq * 100, n);
	u64 std10 = int_sqrt64(sq100 > mean10 * mean10 ? sq100 - mean10 * mean10 : 0);
	char nmi[24] = "-";

	if (TEB_NMI_COUNTED)
		snprintf(nmi, sizeof(nmi), "%llu", all->nmi);
	snprintf(teb_result, sizeof(teb_result),
		 "cpus=%u samples=%llu kept=%llu nmi=%s long=%llu mean=%llu.%llu std=%llu.%llu min=%llu p50=%llu p90=%llu p99=%llu max=%llu clock=%s\n",
		 ncpus, (u64)samples * ncpus, all->kept, nmi, all->long_,
		 mean10 / 10, mean10 % 10, std10 / 10, std10 % 10,
		 all->kept ? all->min : 0, teb_percentile(all, 50),
		 teb_percentile(all, 90), teb_percentile(all, 99), all->max,
		 teb_clock_name());
}

static int teb_run(void)
{
	struct teb_worker *w;
	struct teb_stats *all;
	struct task_struct *t;
	unsigned int n = 0, i;
	int cpu, ret = 0;

	cpus_read_lock();
	teb_nworkers = all_cpus ? num_online_cpus() : 1;
	w = kcalloc(teb_nworkers, sizeof(*w), GFP_KERNEL);
	all = vzalloc(sizeof(*all));
	if (!w || !all) {
		ret = -ENOMEM;
		goto out;
	}
	all->min = U64_MAX;
	atomic_set(&teb_started, 0);
	for_each_online_cpu(cpu) {
		if (n == teb_nworkers)
			break;
		w[n].st = vzalloc(sizeof(*w[n].st));
		init_completion(&w[n].done);
		if (!w[n].st) {
			ret = -ENOMEM;
			break;
		}
		w[n].st->min = U64_MAX;
		t = kthread_run_on_cpu(teb_worker_fn, &w[n], cpu, "teb/%u");
		if (IS_ERR(t)) {
			vfree(w[n].st);
			ret = PTR_ERR(t);
			break;
		}
		n++;
	}
	/* Workers that started wait for the ones that could not */
	atomic_add(teb_nworkers - n, &teb_started);
	for (i = 0; i < n; i++) {
		wait_for_completion(&w[i].done);
		teb_merge(all, w[i].st);
		vfree(w[i].st);
	}
	if (!ret)
		teb_report(all, n);
out:
	cpus_read_unlock();
	vfree(all);
	kfree(w);
	return ret;
}

static int teb_run_set(const char *val, const struct kernel_param *kp)
{
	bool go;
	int ret;

	ret = kstrtobool(val, &go);
	if (ret || !go)
		return ret;
	if (!samples)
		return -EINVAL;
	mutex_lock(&teb_mutex);
	ret = teb_run();
	mutex_unlock(&teb_mutex);
	return ret;
}

static int teb_run_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s", teb_result);
}

static const struct kernel_param_ops teb_run_ops = {
	.set	= teb_run_set,
	.get	= teb_run_get,
};
module_param_cb(run, &teb_run_ops, NULL, 0644);
MODULE_PARM_DESC(run, "Write 1 to run the latency benchmark; read the result");

/* ---- the rate writers ---- */

struct teb_writer {
	struct task_struct	*task;
	unsigned long		calls;
};

static struct teb_writer *teb_writers;
static unsigned int teb_nwriters;
static ulong rate;

static int teb_writer_fn(void *arg)
{
	struct teb_writer *w = arg;
	u64 start = ktime_get_ns();
	unsigned long n = 0, due;

	while (!kthread_should_stop()) {
		due = mul_u64_u64_div_u64(ktime_get_ns() - start, rate, NSEC_PER_SEC);
		while (n < due && !kthread_should_stop()) {
			trace_teb_event(n);
			WRITE_ONCE(w->calls, ++n);
			if (!(n % TEB_CHUNK))
				cond_resched();
		}
		usleep_range(1000, 1100);
	}
	return 0;
}

static void teb_writers_stop(void)
{
	unsigned int i;

	/* Their call counts stay readable until the next start */
	for (i = 0; i < teb_nwriters; i++) {
		if (teb_writers[i].task)
			kthread_stop(teb_writers[i].task);
		teb_writers[i].task = NULL;
	}
	rate = 0;
}

static int teb_writers_start(ulong r)
{
	struct task_struct *t;
	int cpu;

	rate = r;
	memset(teb_writers, 0, nr_cpu_ids * sizeof(*teb_writers));
	teb_nwriters = 0;
	for_each_online_cpu(cpu) {
		t = kthread_run_on_cpu(teb_writer_fn, &teb_writers[teb_nwriters],
				       cpu, "teb_w/%u");
		if (IS_ERR(t)) {
			teb_writers_stop();
			return PTR_ERR(t);
		}
		teb_writers[teb_nwriters++].task = t;
	}
	return 0;
}

static int teb_rate_set(const char *val, const struct kernel_param *kp)
{
	ulong r;
	int ret;

	ret = kstrtoul(val, 0, &r);
	if (ret)
		return ret;
	/* A rate the ktime arithmetic of the writers handles */
	if (r > NSEC_PER_SEC)
		return -ERANGE;
	mutex_lock(&teb_mutex);
	cpus_read_lock();
	teb_writers_stop();
	if (r)
		ret = teb_writers_start(r);
	cpus_read_unlock();
	mutex_unlock(&teb_mutex);
	return ret;
}

static const struct kernel_param_ops teb_rate_ops = {
	.set	= teb_rate_set,
	.get	= param_get_ulong,
};
module_param_cb(rate, &teb_rate_ops, &rate, 0644);
MODULE_PARM_DESC(rate, "Tracepoint calls per second and CPU of the writers; 0 stops");

static int teb_written_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	unsigned int i;

	mutex_lock(&teb_mutex);
	for (i = 0; i < teb_nwriters; i++)
		sum += READ_ONCE(teb_writers[i].calls);
	mutex_unlock(&teb_mutex);
	return scnprintf(buf, PAGE_SIZE, "%lu\n", sum);
}

static const struct kernel_param_ops teb_written_ops = {
	.get	= teb_written_get,
};
module_param_cb(written, &teb_written_ops, NULL, 0444);
MODULE_PARM_DESC(written, "Tracepoint calls made by the rate writers");

static int __init trace_event_bench_init(void)
{
	teb_clock_init();
	teb_writers = kcalloc(nr_cpu_ids, sizeof(*teb_writers), GFP_KERNEL);
	return teb_writers ? 0 : -ENOMEM;
}

static void __exit trace_event_bench_exit(void)
{
	mutex_lock(&teb_mutex);
	teb_writers_stop();
	mutex_unlock(&teb_mutex);
	kfree(teb_writers);
}

module_init(trace_event_bench_init);
module_exit(trace_event_bench_exit);
MODULE_DESCRIPTION("Cost and throughput of a 4-byte trace event");
MODULE_LICENSE("GPL");
