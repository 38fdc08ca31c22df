// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer startup self test.
 *
 * It uses only the API of include/linux/ring_buffer.h, so it checks any
 * implementation of it.
 */
#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/random.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/smp.h>

/* Stop the buffer being tested and warn */
#define RB_WARN_ON(b, cond)						\
	({								\
		int _____ret = unlikely(cond);				\
		if (_____ret) {						\
			ring_buffer_record_disable(b);			\
			WARN_ON(1);					\
		}							\
		_____ret;						\
	})

/*
 * This is a basic integrity check of the ring buffer.
 * Late in the boot cycle this test will run when configured in.
 * It will kick off a thread per CPU that will go into a loop
 * writing to the per cpu ring buffer various sizes of data.
 * Some of the data will be large items, some small.
 *
 * Another thread is created that goes into a spin, sending out
 * IPIs to the other CPUs to also write into the ring buffer.
 * this is to test the nesting ability of the buffer.
 *
 * Basic stats are recorded and reported. If something in the
 * ring buffer should happen that's not expected, a big warning
 * is displayed and all ring buffers are disabled.
 */
static struct task_struct *rb_threads[NR_CPUS] __initdata;

struct rb_test_data {
	struct trace_buffer *buffer;
	unsigned long		events;
	unsigned long		bytes_written;
	unsigned long		bytes_alloc;
	unsigned long		bytes_dropped;
	unsigned long		events_nested;
	unsigned long		bytes_written_nested;
	unsigned long		bytes_alloc_nested;
	unsigned long		bytes_dropped_nested;
	int			min_size_nested;
	int			max_size_nested;
	int			max_size;
	int			min_size;
	int			cpu;
	int			cnt;
};

static struct rb_test_data rb_data[NR_CPUS] __initdata;

/* 1 meg per cpu */
#define RB_TEST_BUFFER_SIZE	1048576

static char rb_string[] __initdata =
	"abcdefghijklmnopqrstuvwxyz1234567890!@#$%^&*()?+\\"
	"?+|:';\",.<>/?abcdefghijklmnopqrstuvwxyz1234567890"
	"!@#$%^&*()?+\\?+|:';\",.<>/?abcdefghijklmnopqrstuv";

static bool rb_test_started __initdata;

struct rb_item {
	int size;
	char str[];
};

static __init int rb_write_something(struct rb_test_data *data, bool nested)
{
	struct ring_buffer_event *event;
	struct rb_item *item;
	bool started;
	int event_len;
	int size;
	int len;
	int cnt;

	/* Have nested writes different that what is written */
	cnt = data->cnt + (nested ? 27 : 0);

	/* Multiply cnt by ~e, to make some unique increment */
	size = (cnt * 68 / 25) % (sizeof(rb_string) - 1);

	len = size + sizeof(struct rb_item);

	started = rb_test_started;
	/* read rb_test_started before checking buffer enabled */
	smp_rmb();

	event = ring_buffer_lock_reserve(data->buffer, len);
	if (!event) {
		/* Ignore dropped events before test starts. */
		if (started) {
			if (nested)
				data->bytes_dropped_nested += len;
			else
				data->bytes_dropped += len;
		}
		return len;
	}

	event_len = ring_buffer_event_length(event);

	if (RB_WARN_ON(data->buffer, event_len < len))
		goto out;

	item = ring_buffer_event_data(event);
	item->size = size;
	memcpy(item->str, rb_string, size);

	if (nested) {
		data->bytes_alloc_nested += event_len;
		data->bytes_written_nested += len;
		data->events_nested++;
		if (!data->min_size_nested || len < data->min_size_nested)
			data->min_size_nested = len;
		if (len > data->max_size_nested)
			data->max_size_nested = len;
	} else {
		data->bytes_alloc += event_len;
		data->bytes_written += len;
		data->events++;
		if (!data->min_size || len < data->min_size)
			data->max_size = len;
		if (len > data->max_size)
			data->max_size = len;
	}

 out:
	ring_buffer_unlock_commit(data->buffer, event);

	return 0;
}

static __init int rb_test(void *arg)
{
	struct rb_test_data *data = arg;

	while (!kthread_should_stop()) {
		rb_write_something(data, false);
		data->cnt++;

		set_current_state(TASK_INTERRUPTIBLE);
		/* Now sleep between a min of 100-300us and a max of 1ms */
		usleep_range(((data->cnt % 3) + 1) * 100, 1000);
	}

	return 0;
}

static __init void rb_ipi(void *ignore)
{
	struct rb_test_data *data;
	int cpu = smp_processor_id();

	data = &rb_data[cpu];
	rb_write_something(data, true);
}

static __init int rb_hammer_test(void *arg)
{
	while (!kthread_should_stop()) {

		/* Send an IPI to all cpus to write data! */
		smp_call_function(rb_ipi, NULL, 1);
		/* No sleep, but for non preempt, let others run */
		schedule();
	}

	return 0;
}

/*
 * A clock that goes back with writers running: tracing_set_clock() calls
 * ring_buffer_set_clock() and resets the buffer only after it, so on a
 * CPU the records of a new clock that is behind the old one can follow
 * those of the old one; so can those of a sched_clock that steps back.
 * A reader must not see time go back within a sub-buffer, and no record
 * may go missing.  The case writes a few records with a clock a second
 * ahead, goes back to the local clock, and writes enough for three
 * sub-buffers of a page: the first is delivered with both clocks'
 * records in it, and the buffer's own time check (if configured) looks
 * at it then.  Read back, the records must all be there, in order; the
 * time may go back once, where the next sub-buffer's header takes the
 * clock's own time, but not at the first record after the change, which
 * shares the first sub-buffer with those before it.
 *
 * The page-based buffer keeps the time of the record before too (a
 * delta of 0, rb_add_timestamp()), but its own check,
 * CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS, compares the page's times
 * with the clock (check_buffer()): with the case on, it reports "TIME
 * DOES NOT MATCH" at the record after the change and stops recording on
 * that CPU.  So the case runs on the sub-buffer ring buffer only.
 */
#define RB_CLOCK_STEP		NSEC_PER_SEC
#define RB_CLOCK_BEFORE		3
#define RB_CLOCK_RECORDS	(3 * PAGE_SIZE / 8)

static __init u64 rb_clock_ahead(void)
{
	return trace_clock_local() + RB_CLOCK_STEP;
}

static __init int rb_test_clock_back(void)
{
	struct ring_buffer_event *event;
	struct trace_buffer *buffer;
	unsigned long lost, back = 0;
	u64 ts, prev = 0;
	int cpu, i, n;

	if (!IS_ENABLED(CONFIG_RING_BUFFER_SUBBUF))
		return 0;
	buffer = ring_buffer_alloc(8 * PAGE_SIZE, 0);
	if (WARN_ON(!buffer))
		return -ENOMEM;
	ring_buffer_set_clock(buffer, rb_clock_ahead);

	preempt_disable();
	cpu = smp_processor_id();
	for (i = 0; i < RB_CLOCK_RECORDS; i++) {
		if (i == RB_CLOCK_BEFORE)
			ring_buffer_set_clock(buffer, trace_clock_local);
		if (ring_buffer_write(buffer, sizeof(i), &i))
			break;
	}
	preempt_enable();
	if (i < RB_CLOCK_RECORDS) {
		pr_err("clock-back case: write %d of %lu failed\n", i, RB_CLOCK_RECORDS);
		goto fail;
	}

	for (n = 0; (event = ring_buffer_consume(buffer, cpu, &ts, &lost)); n++) {
		i = *(int *)ring_buffer_event_data(event);
		if (i != n || lost) {
			pr_err("clock-back case: record %d read as record %d, %lu lost\n",
			       n, i, lost);
			goto fail;
		}
		if (n && ts < prev) {
			back++;
			if (n == RB_CLOCK_BEFORE || back > 1) {
				pr_err("clock-back case: record %d time %llu after %llu\n",
				       n, ts, prev);
				goto fail;
			}
		}
		prev = ts;
	}
	if (n != RB_CLOCK_RECORDS) {
		pr_err("clock-back case: %d of %lu records read\n", n, RB_CLOCK_RECORDS);
		goto fail;
	}
	ring_buffer_free(buffer);
	pr_info("clock-back case: %d records, time went back %lu time(s), not at the change\n",
		n, back);
	return 0;
 fail:
	RB_WARN_ON(buffer, 1);
	ring_buffer_free(buffer);
	return -EINVAL;
}

static __init int test_ringbuffer(void)
{
	struct task_struct *rb_hammer;
	struct trace_buffer *buffer;
	int cpu;
	int ret = 0;

	if (security_locked_down(LOCKDOWN_TRACEFS)) {
		pr_warn("Lockdown is enabled, skipping ring buffer tests\n");
		return 0;
	}

	pr_info("Running ring buffer tests...\n");

	buffer = ring_buffer_alloc(RB_TEST_BUFFER_SIZE, RB_FL_OVERWRITE);
	if (WARN_ON(!buffer))
		return 0;

	/* Disable buffer so that threads can't write to it yet */
	ring_buffer_record_off(buffer);

	for_each_online_cpu(cpu) {
		rb_data[cpu].buffer = buffer;
		rb_data[cpu].cpu = cpu;
		rb_data[cpu].cnt = cpu;
		rb_threads[cpu] = kthread_run_on_cpu(rb_test, &rb_data[cpu],
						     cpu, "rbtester/%u");
		if (WARN_ON(IS_ERR(rb_threads[cpu]))) {
			pr_cont("FAILED\n");
			ret = PTR_ERR(rb_threads[cpu]);
			goto out_free;
		}
	}

	/* Now create the rb hammer! */
	rb_hammer = kthread_run(rb_hammer_test, NULL, "rbhammer");
	if (WARN_ON(IS_ERR(rb_hammer))) {
		pr_cont("FAILED\n");
		ret = PTR_ERR(rb_hammer);
		goto out_free;
	}

	ring_buffer_record_on(buffer);
	/*
	 * Show buffer is enabled before setting rb_test_started.
	 * Yes there's a small race window where events could be
	 * dropped and the thread wont catch it. But when a ring
	 * buffer gets enabled, there will always be some kind of
	 * delay before other CPUs see it. Thus, we don't care about
	 * those dropped events. We care about events dropped after
	 * the threads see that the buffer is active.
	 */
	smp_wmb();
	rb_test_started = true;

	set_current_state(TASK_INTERRUPTIBLE);
	/* Just run for 10 seconds */;
	schedule_timeout(10 * HZ);

	kthread_stop(rb_hammer);

 out_free:
	for_each_online_cpu(cpu) {
		if (IS_ERR_OR_NULL(rb_threads[cpu]))
			break;
		kthread_stop(rb_threads[cpu]);
	}
	if (ret) {
		ring_buffer_free(buffer);
		return ret;
	}

	/* Report! */
	pr_info("finished\n");
	for_each_online_cpu(cpu) {
		struct ring_buffer_event *event;
		struct rb_test_data *data = &rb_data[cpu];
		struct rb_item *item;
		unsigned long total_events;
		unsigned long total_dropped;
		unsigned long total_written;
		unsigned long total_alloc;
		unsigned long total_read = 0;
		unsigned long total_size = 0;
		unsigned long total_len = 0;
		unsigned long total_lost = 0;
		unsigned long lost;
		int big_event_size;
		int small_event_size;

		ret = -1;

		total_events = data->events + data->events_nested;
		total_written = data->bytes_written + data->bytes_written_nested;
		total_alloc = data->bytes_alloc + data->bytes_alloc_nested;
		total_dropped = data->bytes_dropped + data->bytes_dropped_nested;

		big_event_size = data->max_size + data->max_size_nested;
		small_event_size = data->min_size + data->min_size_nested;

		pr_info("CPU %d:\n", cpu);
		pr_info("              events:    %ld\n", total_events);
		pr_info("       dropped bytes:    %ld\n", total_dropped);
		pr_info("       alloced bytes:    %ld\n", total_alloc);
		pr_info("       written bytes:    %ld\n", total_written);
		pr_info("       biggest event:    %d\n", big_event_size);
		pr_info("      smallest event:    %d\n", small_event_size);

		if (RB_WARN_ON(buffer, total_dropped))
			break;

		ret = 0;

		while ((event = ring_buffer_consume(buffer, cpu, NULL, &lost))) {
			total_lost += lost;
			item = ring_buffer_event_data(event);
			total_len += ring_buffer_event_length(event);
			total_size += item->size + sizeof(struct rb_item);
			if (memcmp(&item->str[0], rb_string, item->size) != 0) {
				pr_info("FAILED!\n");
				pr_info("buffer had: %.*s\n", item->size, item->str);
				pr_info("expected:   %.*s\n", item->size, rb_string);
				RB_WARN_ON(buffer, 1);
				ret = -1;
				break;
			}
			total_read++;
		}
		if (ret)
			break;

		ret = -1;

		pr_info("         read events:   %ld\n", total_read);
		pr_info("         lost events:   %ld\n", total_lost);
		pr_info("        total events:   %ld\n", total_lost + total_read);
		pr_info("  recorded len bytes:   %ld\n", total_len);
		pr_info(" recorded size bytes:   %ld\n", total_size);
		if (total_lost) {
			pr_info(" With dropped events, record len and size may not match\n"
				" alloced and written from above\n");
		} else {
			if (RB_WARN_ON(buffer, total_len != total_alloc ||
				       total_size != total_written))
				break;
		}
		if (RB_WARN_ON(buffer, total_lost + total_read != total_events))
			break;

		ret = 0;
	}
	if (!ret)
		ret = rb_test_clock_back();
	if (!ret)
		pr_info("Ring buffer PASSED!\n");

	ring_buffer_free(buffer);
	return 0;
}

late_initcall(test_ringbuffer);
