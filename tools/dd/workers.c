#include "config.h"

#include "tools/dd/dd.h"

/* Set by main.c's signal handler; the workers stop at the next transfer. */
volatile sig_atomic_t g_stop, g_signal;

void
wait_gate(struct dd *dd)
{
	pthread_mutex_lock(&dd->gate_lock);
	dd->gate_ready++;
	pthread_cond_broadcast(&dd->gate_cond);
	while (!dd->gate_open)
		pthread_cond_wait(&dd->gate_cond, &dd->gate_lock);
	pthread_mutex_unlock(&dd->gate_lock);
}

/* The start side of the gate: wait until n threads are at it, or open it. */
void
await_ready(struct dd *dd, int n)
{
	pthread_mutex_lock(&dd->gate_lock);
	while (dd->gate_ready < n)
		pthread_cond_wait(&dd->gate_cond, &dd->gate_lock);
	pthread_mutex_unlock(&dd->gate_lock);
}

void
open_gate(struct dd *dd)
{
	pthread_mutex_lock(&dd->gate_lock);
	dd->gate_open = 1;
	pthread_cond_broadcast(&dd->gate_cond);
	pthread_mutex_unlock(&dd->gate_lock);
}

/* ------------------------------------------------------------ run */

/*
 * Start the thr= threads of devices [first, first + n): w[] and tid[] are
 * indexed device * thr + thread.  On failure the run is stopped, the gate
 * opened for the threads already waiting, and -1 returned with *started
 * the number that run.
 */
int
start_threads(struct dd *dd, int first, int n, struct wctx **w, pthread_t *tid, int *started,
              char *why, size_t why_len)
{
	int i, k, x;

	*started = 0;
	for (i = first; i < first + n; i++)
		for (k = 0; k < (int)dd->o.thr; k++) {
			struct wctx *c = calloc(1, sizeof(*c));

			x = i * (int)dd->o.thr + k;
			if (c != NULL) {
				c->dd = dd;
				c->d = &dd->devs[i];
				c->k = k;
				diot_hist_reset(&c->hist);
				w[x] = c;
			}
			if (c == NULL || pthread_create(&tid[x], NULL, worker, c) != 0) {
				snprintf(why, why_len, "cannot start thread %d of '%s'%s", k,
				         dd->devs[i].name, c == NULL ? ": out of memory" : "");
				g_stop = 1;
				open_gate(dd);
				return -1;
			}
			++*started;
		}
	return 0;
}

/* User and system CPU of the run: this process, and its worker processes
 * once they have been waited for. */
void
cpu_times_all(struct dd *dd, double *user, double *sys)
{
	double cu, cs;

	diot_cpu_times(user, sys);
	if (dd->o.procs && diot_rusage_times(RUSAGE_CHILDREN, &cu, &cs) == 0) {
		*user += cu;
		*sys += cs;
	}
}

static void
forward_stop(const pid_t *pid, int n, int *done)
{
	int i;

	if (*done || !g_signal)
		return;
	for (i = 0; i < n; i++)
		if (pid[i] > 0)
			kill(pid[i], SIGTERM);
	*done = 1;
}

/* A worker process: the threads of device i, then exit.  Nothing here
 * prints; what goes wrong goes into the device's shared record. */
static void
process_main(struct dd *dd, int i, struct wctx **w, pthread_t *tid, int ready_w, int go_r,
             const uint64_t *go_time)
{
	struct dev *d = &dd->devs[i];
	int k, started;
	char c;

	if (!dd->o.same_session)
		setsid();   /* scheduled as a group of its own, as fio's jobs are */
	if (start_threads(dd, i, 1, w, tid, &started, d->errmsg, sizeof(d->errmsg)) < 0)
		d->err = -EAGAIN;
	else
		await_ready(dd, started);
	while (write(ready_w, "r", 1) < 0 && errno == EINTR)
		;
	close(ready_w);     /* so that the parent sees the end once all are ready or gone */
	while (read(go_r, &c, 1) < 0 && errno == EINTR && !g_stop)
		;
	dd->t_go = *go_time;
	open_gate(dd);
	for (k = 0; k < started; k++)
		pthread_join(tid[i * (int)dd->o.thr + k], NULL);
	_exit(0);
}

/*
 * --processes: fork a worker process per device; the devices' records are
 * in shared memory.  The start gate is two pipes: every process says it is
 * ready, then all start when "go" is closed.  The workers have left this
 * process's session, so a signal that stops the run is passed on.
 */
void
run_processes(struct dd *dd, struct wctx **w, pthread_t *tid, double *u0, double *s0)
{
	pid_t *pid = calloc((size_t)dd->ndevs, sizeof(*pid));
	uint64_t *go_time;
	int ready[2], go[2], i, nready = 0, forwarded = 0, status;
	char c;
	ssize_t n;

	go_time = mmap(NULL, sizeof(*go_time), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON,
	               -1, 0);
	if (pid == NULL || go_time == MAP_FAILED)
		fail_setup(dd, DIOT_EXIT_FAIL, "cannot set up worker processes: out of memory");
	if (pipe(ready) != 0 || pipe(go) != 0)
		fail_setup(dd, DIOT_EXIT_FAIL, "cannot set up worker processes: pipe: %s",
		           dio_strerror(-errno));
	fflush(NULL);
	for (i = 0; i < dd->ndevs; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(ready[0]);
			close(go[1]);
			process_main(dd, i, w, tid, ready[1], go[0], go_time);
		}
		if (pid[i] < 0) {
			int e = errno, k;

			for (k = 0; k < i; k++)
				kill(pid[k], SIGTERM);
			close(go[1]);
			for (k = 0; k < i; k++)
				while (waitpid(pid[k], &status, 0) < 0 && errno == EINTR)
					;
			fail_setup(dd, DIOT_EXIT_FAIL, "cannot start a process for '%s': fork: %s",
			           dd->devs[i].name, dio_strerror(-e));
		}
	}
	close(ready[1]);
	close(go[0]);
	/* Every worker ready (or gone: end of file). */
	while (nready < dd->ndevs) {
		n = read(ready[0], &c, 1);
		if (n == 1)
			nready++;
		else if (n == 0 || errno != EINTR)
			break;
		forward_stop(pid, dd->ndevs, &forwarded);
	}
	close(ready[0]);
	cpu_times_all(dd, u0, s0);
	*go_time = dd->t_go = diot_now_ns();
	close(go[1]);
	for (i = 0; i < dd->ndevs; i++) {
		/* Polled, so that a signal that came between two checks is
		 * still passed on within 20 ms. */
		for (;;) {
			pid_t r;

			forward_stop(pid, dd->ndevs, &forwarded);
			r = waitpid(pid[i], &status, WNOHANG);
			if (r == pid[i])
				break;
			if (r < 0 && errno != EINTR) {
				status = 0;
				break;
			}
			if (r == 0) {
				struct timespec ts = { 0, 20000000L };

				nanosleep(&ts, NULL);
			}
		}
		if ((WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) &&
		    dd->devs[i].err == 0) {
			dd->devs[i].err = -ECHILD;
			if (WIFSIGNALED(status))
				snprintf(dd->devs[i].errmsg, sizeof(dd->devs[i].errmsg), "the process "
				         "for '%s' was killed by signal %d", dd->devs[i].name,
				         WTERMSIG(status));
			else
				snprintf(dd->devs[i].errmsg, sizeof(dd->devs[i].errmsg), "the process "
				         "for '%s' exited with status %d", dd->devs[i].name,
				         WEXITSTATUS(status));
		}
	}
	munmap(go_time, sizeof(*go_time));
	free(pid);
}

/*
 * Start every worker (threads, or a process per device), release them
 * at once, wait for all; the CPU time they used in *cpu_user, *cpu_sys.
 */
void
run_workers(struct dd *dd, double *cpu_user, double *cpu_sys)
{
	char err[DIOT_ERR_MAX];
	struct wctx **w;
	pthread_t *tid;
	double u0 = 0, s0 = 0, u1 = 0, s1 = 0;
	int i, started, nthr;

	nthr = dd->ndevs * (int)dd->o.thr;
	w = calloc((size_t)nthr, sizeof(*w));
	tid = calloc((size_t)nthr, sizeof(*tid));
	if (w == NULL || tid == NULL)
		fail_setup(dd, DIOT_EXIT_FAIL, "out of memory");
	if (dd->o.procs) {
		run_processes(dd, w, tid, &u0, &s0);
	} else {
		if (start_threads(dd, 0, dd->ndevs, w, tid, &started, err, sizeof(err)) < 0)
			fail_setup(dd, DIOT_EXIT_FAIL, "%s", err);
		/* Every thread has its buffers and is waiting: measure from here. */
		await_ready(dd, nthr);
		diot_cpu_times(&u0, &s0);
		dd->t_go = diot_now_ns();
		open_gate(dd);
		for (i = 0; i < nthr; i++)
			pthread_join(tid[i], NULL);
	}
	cpu_times_all(dd, &u1, &s1);
	*cpu_user = u1 - u0;
	*cpu_sys = s1 - s0;
	for (i = 0; i < nthr; i++)
		free(w[i]);
	free(w);
	free(tid);
}
