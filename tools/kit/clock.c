/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.c -- the tools' clocks; see clock.h.
 */
#include "config.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "tools/kit/clock.h"

uint64_t
diot_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double
diot_now(void)
{
	return (double)diot_now_ns() / 1e9;
}

int
diot_rusage_times(int who, double *user, double *sys)
{
	struct rusage ru;

	if (getrusage(who, &ru) != 0)
		return -errno;
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return 0;
}

int
diot_cpu_times(double *user, double *sys)
{
	return diot_rusage_times(RUSAGE_SELF, user, sys);
}
