/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signals.c -- the signals that stop a run: SIGINT, SIGTERM and SIGHUP
 * set sw_signal, which every stage is handed (struct sw_ctx's sig) and
 * polls; SIGPIPE is ignored, so that a write to a closed pipe is an error
 * the writer can tell (output.c: the results' reader left, which stops
 * the run as a signal does, through sw_stop_run(); output.c then ends
 * it killed by SIGPIPE, as a Unix filter is).
 */
#include "config.h"

#include <signal.h>

#include "tools/kit/msg.h"
#include "tools/kit/outfile.h"
#include "tools/sw/sw.h"

volatile sig_atomic_t sw_signal;

static void
on_signal(int sig)
{
	sw_signal = sig;
	/* A rank of an MPI job stops on somebody's word (the user's, or the
	 * launcher's once another rank died): its guard says nothing of it
	 * should it be killed before the job ends (outfile.h). */
	diot_out_guard_signal(sig);
}

/* SIGINT, SIGTERM and SIGHUP stop the run (sw_signal); SIGPIPE is an error. */
void
sw_catch_signals(void)
{
	diot_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
}

void
sw_stop_run(int sig)
{
	if (!sw_signal)
		sw_signal = sig;
}
