/*
 * chat.c - the IBM "chat" benchmark of the 2001 LSE scheduler-scalability
 * work: `rooms` rooms of `users` users; every user has a sender and a
 * receiver; each message a user sends goes to its room's server, which
 * relays it to every other user of the room.  With mode = threads all tasks
 * share one file table, so every socket read and write takes the same
 * files_struct lock (the fget() ping-pong that halved 32-CPU throughput);
 * with mode = processes each task has its own.  One create/reap pair
 * (procs.h) switches between the two, as perf bench sched-messaging does.
 *
 * Fixed work: each user sends `messages` messages; runtime and jobs do
 * not apply (WL_OWN_DURATION; fixed work in db/vocab.c).  Every delivery is checked: each receiver must get
 * exactly `messages` messages from every other user of its room, in order,
 * and none of its own, or the run fails.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/workloads/harness.h"
#include "runner/workloads/procs.h"
#include "runner/workloads/workloads.h"

enum { P_ROOMS, P_USERS, P_MESSAGES, P_SIZE, P_MODE, P_NPARAMS };

static const char *const modes[] = { "threads", "processes", NULL };
enum { MODE_THREADS, MODE_PROCESSES };

/* Tasks per run (senders, receivers, servers): the runner's worker cap. */
#define CHAT_MAX_TASKS 4096
/* Descriptors kept free for stdio, the runner's pipes and libraries. */
#define CHAT_FD_RESERVE 32

static const struct param_def chat_params[] = {
	[P_ROOMS] = { "rooms", PT_INT, "10", 1, 2048, NULL,
		      "chat rooms, each with its own server" },
	[P_USERS] = { "users", PT_INT, "20", 2, 2048, NULL,
		      "users per room; each has a sender and a receiver" },
	[P_MESSAGES] = { "messages", PT_INT, "100", 1, 1e7, NULL,
			 "messages each user sends (fixed work)" },
	[P_SIZE] = { "size", PT_INT, "100", 8, 65536, NULL,
		     "bytes per message" },
	[P_MODE] = { "mode", PT_ENUM, "threads", 0, 0, modes,
		     "threads: one shared file table; processes: one each" },
};

struct chat_shared {
	struct gate gate;
	atomic_int failed;     /* first failure wins the right to explain */
	char error[256];
};

/* Slot use: ops = messages received; aux as below. */
enum { AUX_RECV_PID, AUX_SEND_PID, AUX_END_NS };

struct chat_ctx {
	struct chat_shared *sh;
	struct slot *users;    /* rooms x users */
	struct slot *servers;  /* rooms */
	int (*fds)[2];         /* per user: [0] user end, [1] server end */
	size_t rooms, nusers, nfds;
	uint64_t messages;
	size_t size;
};

struct chat_arg {
	const struct chat_ctx *c;
	size_t id;             /* global user index, or room for a server */
};

/* A message starts with who sent it and its sequence number. */
struct chat_hdr {
	uint32_t sender;
	uint32_t seq;
};

static size_t chat_tasks(size_t rooms, size_t users)
{
	return rooms * (2 * users + 1);
}

/* Limits that depend on two parameters or on the process: fds and tasks. */
static int chat_check(size_t rooms, size_t users, char *err, size_t errlen)
{
	size_t tasks = chat_tasks(rooms, users), need = 2 * rooms * users;
	struct rlimit rl;

	if (tasks > CHAT_MAX_TASKS) {
		snprintf(err, errlen, "rooms x (2 x users + 1) = %zu tasks; "
			 "at most %d", tasks, CHAT_MAX_TASKS);
		return -1;
	}
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    need + CHAT_FD_RESERVE > rl.rlim_cur) {
		snprintf(err, errlen, "rooms x users = %zu users need %zu file "
			 "descriptors (a socket pair each) but RLIMIT_NOFILE "
			 "is %llu; raise it (ulimit -n) or lower rooms/users",
			 rooms * users, need + CHAT_FD_RESERVE,
			 (unsigned long long)rl.rlim_cur);
		return -1;
	}
	return 0;
}

static int chat_validate(const struct wl_args *a, struct wl_blame *blame,
			 char *err, size_t errlen)
{
	if (chat_check((size_t)a->v[P_ROOMS].i, (size_t)a->v[P_USERS].i, err,
		       errlen))
		return wl_blame(blame, "rooms", "users");
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Records the first failure and shuts every socket down, so tasks blocked
 * in read or write (in any process: the sockets are shared) return at
 * once instead of waiting forever for a peer that is gone.
 */
static int chat_fail(const struct chat_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int chat_fail(const struct chat_ctx *c, const char *fmt, ...)
{
	char msg[sizeof(c->sh->error)];
	int expected = 0;
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (atomic_compare_exchange_strong(&c->sh->failed, &expected, 1))
		memcpy(c->sh->error, msg, sizeof(msg));
	for (i = 0; i < c->nfds; i++) {
		shutdown(c->fds[i][0], SHUT_RDWR);
		shutdown(c->fds[i][1], SHUT_RDWR);
	}
	return -1;
}

/* Whole messages over a stream socket: 0, or -1 (EOF counts as error). */
static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EPIPE;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int chat_sender(void *arg)
{
	const struct chat_arg *x = arg;
	const struct chat_ctx *c = x->c;
	char *msg = xcalloc(1, c->size);
	struct chat_hdr h = { (uint32_t)x->id, 0 };
	int ret = 0;

	c->users[x->id].aux[AUX_SEND_PID] = (uint64_t)getpid();
	if (!gate_wait(&c->sh->gate))
		goto out;
	for (; h.seq < c->messages; h.seq++) {
		memcpy(msg, &h, sizeof(h));
		if (write_full(c->fds[x->id][0], msg, c->size)) {
			ret = chat_fail(c, "user %zu: send: %s", x->id,
					strerror(errno));
			break;
		}
	}
out:
	free(msg);
	return ret;
}

/* A delivery must come from another user of the room, in order. */
static int chat_accept(const struct chat_ctx *c, size_t self,
		       const struct chat_hdr *h, uint64_t *next)
{
	size_t room = self / c->nusers, from = h->sender;

	if (from == self || from / c->nusers != room || from >= c->rooms *
	    c->nusers)
		return chat_fail(c, "user %zu: got a message from user %zu",
				 self, from);
	if (h->seq != next[from % c->nusers])
		return chat_fail(c, "user %zu: message %u of user %zu arrived "
				 "when %llu was due", self, h->seq, from,
				 (unsigned long long)next[from % c->nusers]);
	next[from % c->nusers]++;
	return 0;
}

static int chat_receiver(void *arg)
{
	const struct chat_arg *x = arg;
	const struct chat_ctx *c = x->c;
	struct slot *s = &c->users[x->id];
	uint64_t *next = xcalloc(c->nusers, sizeof(*next));
	uint64_t want = c->messages * (c->nusers - 1), got = 0;
	char *msg = xmalloc(c->size);
	struct chat_hdr h;
	int ret = 0;

	s->aux[AUX_RECV_PID] = (uint64_t)getpid();
	if (!gate_wait(&c->sh->gate))
		goto out;
	for (; got < want; got++) {
		if (read_full(c->fds[x->id][0], msg, c->size)) {
			ret = chat_fail(c, "user %zu: receive (%llu of %llu): "
					"%s", x->id, (unsigned long long)got,
					(unsigned long long)want,
					strerror(errno));
			break;
		}
		memcpy(&h, msg, sizeof(h));
		ret = chat_accept(c, x->id, &h, next);
		if (ret)
			break;
	}
	s->aux[AUX_END_NS] = now_ns();
	s->ops = got;
out:
	free(msg);
	free(next);
	return ret;
}

/* Relays one message from user `from` to every other user of the room. */
static int chat_relay(const struct chat_ctx *c, size_t room, size_t from,
		      char *msg)
{
	size_t base = room * c->nusers, u;

	if (read_full(c->fds[base + from][1], msg, c->size))
		return chat_fail(c, "server %zu: receive from user %zu: %s",
				 room, base + from, strerror(errno));
	for (u = 0; u < c->nusers; u++) {
		if (u == from)
			continue;
		if (write_full(c->fds[base + u][1], msg, c->size))
			return chat_fail(c, "server %zu: send to user %zu: %s",
					 room, base + u, strerror(errno));
	}
	return 0;
}

static int chat_server(void *arg)
{
	const struct chat_arg *x = arg;
	const struct chat_ctx *c = x->c;
	size_t room = x->id, u;
	uint64_t left = c->messages * c->nusers;
	struct pollfd *pfd = xcalloc(c->nusers, sizeof(*pfd));
	char *msg = xmalloc(c->size);
	int ret = 0;

	c->servers[room].aux[AUX_RECV_PID] = (uint64_t)getpid();
	for (u = 0; u < c->nusers; u++)
		pfd[u] = (struct pollfd){ c->fds[room * c->nusers + u][1],
					  POLLIN, 0 };
	if (!gate_wait(&c->sh->gate))
		goto out;
	while (left && !ret) {
		if (poll(pfd, c->nusers, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = chat_fail(c, "server %zu: poll: %s", room,
					strerror(errno));
			break;
		}
		for (u = 0; u < c->nusers && left && !ret; u++) {
			if (!pfd[u].revents)
				continue;
			ret = chat_relay(c, room, u, msg);
			left--;
		}
	}
out:
	free(msg);
	free(pfd);
	return ret;
}

static int chat_open(struct chat_ctx *c, struct result *r)
{
	size_t i;

	c->fds = xcalloc(c->nfds, sizeof(*c->fds));
	for (i = 0; i < c->nfds; i++) {
		if (!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
				c->fds[i]))
			continue;
		result_fail(r, "chat: socketpair (user %zu of %zu): %s", i + 1,
			    c->nfds, strerror(errno));
		c->nfds = i;
		return -1;
	}
	return 0;
}

static void chat_close(struct chat_ctx *c)
{
	size_t i;

	for (i = 0; c->fds && i < c->nfds; i++) {
		close(c->fds[i][0]);
		close(c->fds[i][1]);
	}
	free(c->fds);
	c->fds = NULL;
}

/* Starts servers, receivers and senders; on failure abandons the gate. */
static int chat_start(const struct chat_ctx *c, bool threads, struct task *t,
		      struct chat_arg *x, struct result *r)
{
	size_t nu = c->rooms * c->nusers, n = chat_tasks(c->rooms, c->nusers);
	size_t i;

	for (i = 0; i < n; i++) {
		int (*fn)(void *);

		if (i < c->rooms) {
			x[i] = (struct chat_arg){ c, i };
			fn = chat_server;
		} else {
			x[i] = (struct chat_arg){ c, (i - c->rooms) % nu };
			fn = i < c->rooms + nu ? chat_receiver : chat_sender;
		}
		if (task_start(&t[i], threads, fn, &x[i])) {
			result_fail(r, "chat: cannot start task %zu of %zu: %s",
				    i + 1, n, strerror(errno));
			gate_release(&c->sh->gate, GATE_ABANDON);
			return -1;
		}
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* How many distinct processes the tasks ran in: 1 with threads. */
static size_t chat_processes(const struct chat_ctx *c)
{
	size_t nu = c->rooms * c->nusers, n = 0, i, distinct = 0;
	uint64_t *pid = xcalloc(2 * nu + c->rooms, sizeof(*pid));

	for (i = 0; i < nu; i++) {
		pid[n++] = c->users[i].aux[AUX_RECV_PID];
		pid[n++] = c->users[i].aux[AUX_SEND_PID];
	}
	for (i = 0; i < c->rooms; i++)
		pid[n++] = c->servers[i].aux[AUX_RECV_PID];
	qsort(pid, n, sizeof(*pid), cmp_u64);
	for (i = 0; i < n; i++)
		distinct += !i || pid[i] != pid[i - 1];
	free(pid);
	return distinct;
}

static int chat_report(const struct chat_ctx *c, double t0, struct result *r)
{
	size_t nu = c->rooms * c->nusers, i;
	uint64_t *ops = xcalloc(nu, sizeof(*ops)), total = 0, last = 0;
	uint64_t want = (uint64_t)nu * c->messages * (c->nusers - 1);
	double elapsed;

	for (i = 0; i < nu; i++) {
		ops[i] = c->users[i].ops;
		total += ops[i];
		if (c->users[i].aux[AUX_END_NS] > last)
			last = c->users[i].aux[AUX_END_NS];
	}
	elapsed = (double)last * 1e-9 - t0;
	result_set_threads(r, nu, ops);
	free(ops);
	if (total != want)
		return result_fail(r, "chat: %llu messages delivered, expected "
				   "rooms x users x messages x (users - 1) = "
				   "%llu", (unsigned long long)total,
				   (unsigned long long)want);
	result_add(r, "messages", (double)total);
	result_add(r, "elapsed_s", elapsed);
	result_add(r, "throughput", elapsed > 0 ? (double)total / elapsed : 0);
	result_add(r, "processes", (double)chat_processes(c));
	return 0;
}

static int chat_run(const struct wl_args *a, struct result *r)
{
	struct chat_ctx c = {
		.rooms = (size_t)a->v[P_ROOMS].i,
		.nusers = (size_t)a->v[P_USERS].i,
		.messages = (uint64_t)a->v[P_MESSAGES].i,
		.size = (size_t)a->v[P_SIZE].i,
	};
	size_t nu = c.rooms * c.nusers, n = chat_tasks(c.rooms, c.nusers);
	size_t hdr = (sizeof(struct chat_shared) + sizeof(struct slot) - 1) /
		     sizeof(struct slot);
	size_t shsize = (hdr + nu + c.rooms) * sizeof(struct slot);
	struct task *t = NULL;
	struct chat_arg *x = NULL;
	char why[256] = "";
	double t0;
	int ret = -1, started;

	if (chat_check(c.rooms, c.nusers, r->error, sizeof(r->error)))
		return -1;
	c.sh = shm_alloc(shsize);
	if (!c.sh)
		return result_fail(r, "chat: mmap: %s", strerror(errno));
	c.users = (struct slot *)c.sh + hdr;
	c.servers = c.users + nu;
	c.nfds = nu;
	t = xcalloc(n, sizeof(*t));
	x = xcalloc(n, sizeof(*x));
	if (chat_open(&c, r))
		goto out;
	started = !chat_start(&c, a->v[P_MODE].e == MODE_THREADS, t, x, r);
	window_mark(a, true);
	/* Clock first: released tasks may finish before we run again. */
	t0 = now_monotonic();
	if (started)
		gate_release(&c.sh->gate, GATE_OPEN);
	if (task_reap_all(t, n, why, sizeof(why)) || c.sh->failed) {
		window_mark(a, false);
		result_fail(r, "chat: %s", c.sh->failed ? c.sh->error : why);
		goto out;
	}
	window_mark(a, false);
	if (started)
		ret = chat_report(&c, t0, r);
out:
	chat_close(&c);
	free(x);
	free(t);
	shm_free(c.sh, shsize);
	return ret;
}

const struct workload chat_workload = {
	.name = "chat",
	.summary = "rooms x users relay messages through per-room servers over "
		   "socket pairs; threads or processes",
	.help = "The IBM chat benchmark of the LSE scheduler work: each user "
		"of a room has a sender and a receiver; each message goes to "
		"the room's server, which relays it to every other user. "
		"mode = threads shares one file table among all tasks (the "
		"files_struct lock ping-pong), mode = processes gives each its "
		"own. Fixed work: messages per user; runtime and jobs do "
		"not apply. Reports messages delivered (checked to equal rooms x "
		"users x messages x (users - 1), else the run fails), "
		"throughput (deliveries/s), elapsed_s, processes (distinct "
		"processes the tasks ran in: 1 with threads) and per-user "
		"deliveries as thread lines.",
	.params = chat_params,
	.nparams = P_NPARAMS,
	.flags = WL_OWN_DURATION,
	.validate = chat_validate,
	.run = chat_run,
};
