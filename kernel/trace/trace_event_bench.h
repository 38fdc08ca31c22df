/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trace_event_bench

#if !defined(_TRACE_EVENT_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EVENT_BENCH_H

#include <linux/tracepoint.h>

/* A 4-byte payload: the event of the tracer comparisons in the literature. */
TRACE_EVENT(teb_event,

	TP_PROTO(u32 seq),

	TP_ARGS(seq),

	TP_STRUCT__entry(
		__field(u32, seq)
	),

	TP_fast_assign(
		__entry->seq = seq;
	),

	TP_printk("seq=%u", __entry->seq)
);

#endif /* _TRACE_EVENT_BENCH_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace_event_bench
#include <trace/define_trace.h>
