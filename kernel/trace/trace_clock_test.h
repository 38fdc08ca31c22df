/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trace_clock_test

#if !defined(_TRACE_CLOCK_TEST_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_CLOCK_TEST_H

#include <linux/tracepoint.h>

/* A 4-byte payload, the event size of the tracer comparisons. */
TRACE_EVENT(tct_event,

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

#endif /* _TRACE_CLOCK_TEST_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace_clock_test
#include <trace/define_trace.h>
