// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * For compile-fail.sh: a probe whose prototype does not match its
 * tracepoint must not compile at the line that registers it.
 *
 *   -DMISMATCH=0  every probe matches: compiles without a diagnostic
 *   -DMISMATCH=n  probe n is registered with register_trace_cf_tp() on the
 *                 line marked "MISMATCH n", and must be an error there
 *
 * The lines that must fail carry a "MISMATCH n" comment for the script.
 */
#include <linux/tracepoint.h>

DECLARE_TRACE(cf_tp,
	TP_PROTO(int v, const char *s),
	TP_ARGS(v, s));

DEFINE_TRACE(cf_tp);

void good_probe(void *data, int v, const char *s);
void bad_type(void *data, long v, const char *s);	/* int -> long */
void bad_nodata(int v, const char *s);		/* no data pointer */
void bad_extra(void *data, int v, const char *s, int x); /* one more */
int bad_return(void *data, int v, const char *s);	/* returns int */
void bad_qual(void *data, int v, char *s);		/* const dropped */

#ifndef MISMATCH
# define MISMATCH 0
#endif

int cf_register(void);
int cf_register(void)
{
	int ret = 0;

	ret |= register_trace_cf_tp(good_probe, NULL);
	ret |= unregister_trace_cf_tp(good_probe, NULL);
	check_trace_callback_type_cf_tp(good_probe);
#if MISMATCH == 1
	ret |= register_trace_cf_tp(bad_type, NULL); /* MISMATCH 1 */
#elif MISMATCH == 2
	ret |= register_trace_cf_tp(bad_nodata, NULL); /* MISMATCH 2 */
#elif MISMATCH == 3
	ret |= register_trace_cf_tp(bad_extra, NULL); /* MISMATCH 3 */
#elif MISMATCH == 4
	ret |= register_trace_cf_tp(bad_return, NULL); /* MISMATCH 4 */
#elif MISMATCH == 5
	ret |= register_trace_cf_tp(bad_qual, NULL); /* MISMATCH 5 */
#elif MISMATCH == 6
	ret |= register_trace_prio_cf_tp(bad_type, NULL, 5); /* MISMATCH 6 */
#elif MISMATCH == 7
	ret |= unregister_trace_cf_tp(bad_type, NULL); /* MISMATCH 7 */
#elif MISMATCH == 8
	check_trace_callback_type_cf_tp(bad_type); /* MISMATCH 8 */
#endif
	return ret;
}
