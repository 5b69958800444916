/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.h -- the tools' clocks (tools/kit/clock.c): monotonic time, and
 * the CPU time a process and its children used.
 */
#ifndef DIOT_CLOCK_H
#define DIOT_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in seconds, and in nanoseconds. */
double diot_now(void);
uint64_t diot_now_ns(void);

/* User and system CPU seconds used by this process so far. */
int diot_cpu_times(double *user, double *sys);

/* The same for getrusage()'s WHO (RUSAGE_SELF, RUSAGE_CHILDREN, ...);
 * -errno if getrusage() fails (then *user and *sys are left alone). */
int diot_rusage_times(int who, double *user, double *sys);

#endif /* DIOT_CLOCK_H */
