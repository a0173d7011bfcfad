// SPDX-License-Identifier: MIT
/*
 * libAMDProfileController as an Intel ITT collector: the "dynamic part" that the ITT
 * static part (libittnotify.a in the application, or the copy inside LLVM's libomp)
 * dlopen()s from $INTEL_LIBITTNOTIFY64 and hands its table to through __itt_api_init.
 * Written from docs/reference/itt-ompt.md; no Intel code.
 *
 * What is bound, and what it records (through the same control page and records as the
 * native API, so the report treats both alike):
 *   domain_create, string_handle_create        our objects, {flags, nameA}/{strA} first
 *   task_begin, task_begin_fn, _overlapped      a task begin (for _fn the name is the
 *                                               function's symbol, found once by dladdr)
 *   task_end, task_end_overlapped               a task end (closes the domain's latest)
 *   event_create/start/end                      events, reported under "User"
 *   pause, resume, pause/resume_scoped          group 1 pause/resume, how = ITT
 *   thread_set_name, thr_name_set               a THREAD_NAME record for the caller
 *   frame_begin_v3, frame_end_v3                a task "Frame" of the frame's domain
 * Every other table entry is set to its null_func, as Intel's reference collector does.
 *
 * Handles: our domains and string handles carry ITT_OURS in extra1 and our ins_handle in
 * extra2. Anything else (what the static part made before loading us, or a pointer we
 * never saw) is read only as {flags, nameA} / {strA}, resolved by name once under the
 * creation lock, and cached by address in a lock-free table, so the task path neither
 * allocates nor locks after the first use of a handle. NULL handles, disabled domains
 * (flags 0) and unknown event ids are ignored.
 *
 * Several static parts may each call __itt_api_init with their own global: each call
 * fills that global's table; no global is kept. Nothing needs flushing at
 * __itt_api_fini, which the application's static part never calls anyway: records are
 * in the shared page as soon as they are made, and page.c's exit handler (registered
 * from inside this library, so it also runs at dlclose) waits for the profiler to
 * drain them.
 */
#include "instrument/internal.h"
#include "instrument/itt.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITT_EXPORT __attribute__((visibility("default")))
#define ITT_OURS 0x46525055 /* "UPRF": extra1 of the objects we made */
#define MAX_WALK 4096	    /* longest api_list or object list we follow */
#define NAMED_BUCKETS 256
#define KNOWN_SLOTS 1024 /* address -> handle cache, a power of two */
#define MAX_EVENTS 1024
#define FRAME_TASK "Frame"

enum { OBJ_DOMAIN, OBJ_STRING };

/* A domain or string handle of ours: the ITT layout first, then our handle. */
struct itt_obj {
	union {
		struct itt_domain d;
		struct itt_string_handle s;
	} abi;
	struct itt_obj *chain; /* next in its name bucket */
	struct ins_handle *h;  /* allocated right behind this struct */
};

struct known {
	const void *key; /* atomic: published after h */
	struct ins_handle *h;
};

/* Creation paths only: never taken by a task, event or pause call once its handles are
 * known. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct itt_obj *named[2][NAMED_BUCKETS];
static struct known known[KNOWN_SLOTS];
static unsigned nknown;
static struct ins_handle *events[MAX_EVENTS];
static int nevents;		      /* atomic: published after events[nevents - 1] */
static struct ins_handle *frame_name; /* atomic */

static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Our object named @name (first @len bytes), made on first use. Under lock. NULL when
 * out of memory. */
static struct itt_obj *obj_for(int kind, const char *name, size_t len)
{
	struct itt_obj **head = &named[kind][hash(name, len) % NAMED_BUCKETS], *o;

	for (o = *head; o; o = o->chain)
		if (!strncmp(o->h->name, name, len) && !o->h->name[len])
			return o;
	o = calloc(1, sizeof(*o) + sizeof(struct ins_handle) + len + 1);
	if (!o)
		return NULL;
	o->h = (struct ins_handle *)(o + 1);
	memcpy(o->h->name, name, len);
	if (kind == OBJ_DOMAIN) {
		o->abi.d.nameA = o->h->name;
		o->abi.d.extra1 = ITT_OURS;
		o->abi.d.extra2 = o->h;
		o->abi.d.flags = 1;
	} else {
		o->abi.s.strA = o->h->name;
		o->abi.s.extra1 = ITT_OURS;
		o->abi.s.extra2 = o->h;
	}
	o->chain = *head;
	*head = o;
	return o;
}

static struct itt_obj *obj_locked(int kind, const char *name, size_t len)
{
	struct itt_obj *o;

	pthread_mutex_lock(&lock);
	o = obj_for(kind, name, len);
	pthread_mutex_unlock(&lock);
	return o;
}

static size_t slot_of(const void *key)
{
	uintptr_t k = (uintptr_t)key;

	return (k >> 4 ^ k >> 16) & (KNOWN_SLOTS - 1);
}

/* Lock-free: the handle cached for @key, or NULL. At most 1/4 of the slots are ever
 * taken, so a probe always ends at an empty one. */
static struct ins_handle *known_find(const void *key)
{
	for (size_t i = 0, s = slot_of(key); i < KNOWN_SLOTS; i++, s = (s + 1) % KNOWN_SLOTS) {
		const void *k = __atomic_load_n(&known[s].key, __ATOMIC_ACQUIRE);

		if (k == key)
			return known[s].h;
		if (!k)
			break;
	}
	return NULL;
}

/* Slow path: resolve a handle we did not make by its @name, and cache it under @key. */
static struct ins_handle *remember(const void *key, int kind, const char *name)
{
	struct ins_handle *h;
	struct itt_obj *o;

	pthread_mutex_lock(&lock);
	h = known_find(key);
	if (!h && (o = obj_for(kind, name, strnlen(name, UPROF_CTL_NAME_MAX)))) {
		h = o->h;
		if (nknown < KNOWN_SLOTS * 3 / 4) {
			size_t s = slot_of(key);

			while (known[s].key)
				s = (s + 1) % KNOWN_SLOTS;
			known[s].h = h;
			__atomic_store_n(&known[s].key, key, __ATOMIC_RELEASE);
			nknown++;
		}
	}
	pthread_mutex_unlock(&lock);
	return h;
}

static struct ins_handle *domain_handle(const struct itt_domain *d)
{
	struct ins_handle *h;

	if (d->extra1 == ITT_OURS && d->extra2)
		return d->extra2;
	h = known_find(d);
	if (!h && d->nameA)
		h = remember(d, OBJ_DOMAIN, d->nameA);
	return h;
}

static struct ins_handle *string_handle(const struct itt_string_handle *s)
{
	struct ins_handle *h;

	if (!s)
		return NULL;
	if (s->extra1 == ITT_OURS && s->extra2)
		return s->extra2;
	h = known_find(s);
	if (!h && s->strA)
		h = remember(s, OBJ_STRING, s->strA);
	return h;
}

/* The name of a task_begin_fn task: the function's symbol, else its address. */
static struct ins_handle *function_handle(void *fn)
{
	struct ins_handle *h;
	char buf[32];
	Dl_info info;

	if (!fn)
		return NULL;
	h = known_find(fn);
	if (h)
		return h;
	if (dladdr(fn, &info) && info.dli_sname && *info.dli_sname)
		return remember(fn, OBJ_STRING, info.dli_sname);
	snprintf(buf, sizeof(buf), "%p", fn);
	return remember(fn, OBJ_STRING, buf);
}

/* Is @d a domain whose calls count? (The application's macros check flags too.) */
static bool live(const struct itt_domain *d)
{
	return d && d->flags && ins_on();
}

static void begin(const struct itt_domain *d, struct ins_handle *name)
{
	struct ins_handle *hd = domain_handle(d);

	if (hd && name)
		ins_record(UPROF_REC_TASK_BEGIN, hd, name);
}

static void end(const struct itt_domain *d)
{
	struct ins_handle *hd = domain_handle(d);

	if (hd)
		ins_record(UPROF_REC_TASK_END, hd, NULL);
}

/* ---- the bound functions (C linkage, the static part's signatures) ---- */

static struct itt_domain *itt_domain_create(const char *name)
{
	int saved = errno;
	struct itt_obj *o = name ? obj_locked(OBJ_DOMAIN, name, strnlen(name, UPROF_CTL_NAME_MAX))
				 : NULL;

	errno = saved;
	return o ? &o->abi.d : NULL;
}

static struct itt_string_handle *itt_string_handle_create(const char *name)
{
	int saved = errno;
	struct itt_obj *o = name ? obj_locked(OBJ_STRING, name, strnlen(name, UPROF_CTL_NAME_MAX))
				 : NULL;

	errno = saved;
	return o ? &o->abi.s : NULL;
}

static void itt_task_begin(const struct itt_domain *d, struct itt_id id, struct itt_id parent,
			   struct itt_string_handle *name)
{
	int saved = errno;

	(void)id, (void)parent;
	if (live(d))
		begin(d, string_handle(name));
	errno = saved;
}

static void itt_task_begin_fn(const struct itt_domain *d, struct itt_id id, struct itt_id parent,
			      void *fn)
{
	int saved = errno;

	(void)id, (void)parent;
	if (live(d))
		begin(d, function_handle(fn));
	errno = saved;
}

static void itt_task_end(const struct itt_domain *d)
{
	int saved = errno;

	if (live(d))
		end(d);
	errno = saved;
}

static void itt_task_end_overlapped(const struct itt_domain *d, struct itt_id id)
{
	(void)id;
	itt_task_end(d);
}

static void itt_frame_begin_v3(const struct itt_domain *d, struct itt_id *id)
{
	int saved = errno;
	struct ins_handle *name;
	struct itt_obj *o;

	(void)id;
	if (live(d)) {
		name = __atomic_load_n(&frame_name, __ATOMIC_ACQUIRE);
		if (!name && (o = obj_locked(OBJ_STRING, FRAME_TASK, sizeof(FRAME_TASK) - 1)))
			__atomic_store_n(&frame_name, name = o->h, __ATOMIC_RELEASE);
		begin(d, name);
	}
	errno = saved;
}

static void itt_frame_end_v3(const struct itt_domain *d, struct itt_id *id)
{
	(void)id;
	itt_task_end(d);
}

static int itt_event_create(const char *name, int namelen)
{
	int saved = errno, id = -1, n;
	struct itt_obj *o;
	size_t len;

	if (!name)
		return -1;
	len = strnlen(name, namelen > 0 && namelen < UPROF_CTL_NAME_MAX ? (size_t)namelen
									: UPROF_CTL_NAME_MAX);
	pthread_mutex_lock(&lock);
	o = obj_for(OBJ_STRING, name, len);
	n = __atomic_load_n(&nevents, __ATOMIC_RELAXED);
	for (int i = 0; o && i < n && id < 0; i++)
		if (events[i] == o->h)
			id = i + 1;
	if (o && id < 0 && n < MAX_EVENTS) {
		events[n] = o->h;
		__atomic_store_n(&nevents, id = n + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	errno = saved;
	return id;
}

static int event(int id, uint16_t kind)
{
	if (id > 0 && id <= __atomic_load_n(&nevents, __ATOMIC_ACQUIRE))
		ins_record(kind, NULL, events[id - 1]);
	return 0;
}

static int itt_event_start(int id)
{
	return event(id, UPROF_REC_EVENT_START);
}

static int itt_event_end(int id)
{
	return event(id, UPROF_REC_EVENT_END);
}

static void itt_pause(void)
{
	ins_set_state(1, UPROF_HOW_ITT);
}

static void itt_resume(void)
{
	ins_set_state(0, UPROF_HOW_ITT);
}

static void itt_pause_scoped(int scope)
{
	(void)scope;
	itt_pause();
}

static void itt_resume_scoped(int scope)
{
	(void)scope;
	itt_resume();
}

static void thread_name(const char *name, size_t max)
{
	int saved = errno;
	struct itt_obj *o;

	if (name && ins_on()) {
		o = obj_locked(OBJ_STRING, name, strnlen(name, max));
		if (o)
			ins_record(UPROF_REC_THREAD_NAME, NULL, o->h);
	}
	errno = saved;
}

static void itt_thread_set_name(const char *name)
{
	thread_name(name, UPROF_CTL_NAME_MAX);
}

static int itt_thr_name_set(const char *name, int namelen)
{
	thread_name(name, namelen > 0 && namelen < UPROF_CTL_NAME_MAX ? (size_t)namelen
								      : UPROF_CTL_NAME_MAX);
	return 0;
}

/* ---- binding ---- */

static const struct binding {
	const char *name;
	void *fn;
} bindings[] = {
	{ "__itt_domain_create", (void *)itt_domain_create },
	{ "__itt_string_handle_create", (void *)itt_string_handle_create },
	{ "__itt_task_begin", (void *)itt_task_begin },
	{ "__itt_task_begin_fn", (void *)itt_task_begin_fn },
	{ "__itt_task_begin_overlapped", (void *)itt_task_begin },
	{ "__itt_task_end", (void *)itt_task_end },
	{ "__itt_task_end_overlapped", (void *)itt_task_end_overlapped },
	{ "__itt_event_create", (void *)itt_event_create },
	{ "__itt_event_start", (void *)itt_event_start },
	{ "__itt_event_end", (void *)itt_event_end },
	{ "__itt_pause", (void *)itt_pause },
	{ "__itt_resume", (void *)itt_resume },
	{ "__itt_pause_scoped", (void *)itt_pause_scoped },
	{ "__itt_resume_scoped", (void *)itt_resume_scoped },
	{ "__itt_thread_set_name", (void *)itt_thread_set_name },
	{ "__itt_thr_name_set", (void *)itt_thr_name_set },
	{ "__itt_frame_begin_v3", (void *)itt_frame_begin_v3 },
	{ "__itt_frame_end_v3", (void *)itt_frame_end_v3 },
};

static void *bound(const char *name)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (!strcmp(bindings[i].name, name))
			return bindings[i].fn;
	return NULL;
}

/* A fork() while another thread holds the creation lock must not leave it locked. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void fork_done(void)
{
	pthread_mutex_unlock(&lock);
}

/* Called by each static part once, under its global's (recursive) mutex. Fills @p's
 * table and takes note of the domains and strings it made before loading us. */
ITT_EXPORT void __itt_api_init(struct itt_global *p, int init_groups)
{
	static int forks_handled;
	int saved = errno, n = 0;

	(void)init_groups; /* always __itt_group_all; bind what we have, as Intel's does */
	if (!p || memcmp(p->magic, ITT_MAGIC, sizeof(p->magic)))
		return;
	if (!__atomic_exchange_n(&forks_handled, 1, __ATOMIC_ACQ_REL))
		pthread_atfork(fork_prepare, fork_done, fork_done);
	for (struct itt_api_info *e = p->api_list_ptr; e && e->name && n < MAX_WALK; e++, n++) {
		void *fn = bound(e->name);

		if (e->func_ptr)
			*e->func_ptr = fn ? fn : e->null_func;
	}
	n = 0;
	for (struct itt_domain *d = p->domain_list; d && n < MAX_WALK; d = d->next, n++)
		if (d->nameA && d->extra1 != ITT_OURS)
			remember(d, OBJ_DOMAIN, d->nameA);
	n = 0;
	for (struct itt_string_handle *s = p->string_list; s && n < MAX_WALK; s = s->next, n++)
		if (s->strA && s->extra1 != ITT_OURS)
			remember(s, OBJ_STRING, s->strA);
	errno = saved;
}

/* Called by a static part's __itt_fini_ittlib (libomp does at exit; an application's
 * does not). Other static parts may still be using us: nothing to tear down. */
ITT_EXPORT void __itt_api_fini(struct itt_global *p)
{
	(void)p;
}
