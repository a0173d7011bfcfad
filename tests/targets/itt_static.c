// SPDX-License-Identifier: MIT
/*
 * One ITT static part (see itt_static.h), compiled once per -DITT_PART=<prefix>.
 * Part "a" plays a 2025 ittapi (3.26, 200-byte global, a longer table); part "b" plays
 * the older copy inside LLVM's libomp (build 20180723, a shorter table). Both follow
 * reference A1: lazy load on the first call through a generic stub, under the global's
 * recursive mutex; create calls before init only fill the part's own lists; a collector
 * exporting __itt_api_init is handed the global; on failure every slot gets its
 * null_func.
 */
#define _GNU_SOURCE /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include "itt_static.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#ifndef ITT_PART
#error "compile with -DITT_PART=<prefix>"
#endif
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define P(name) CAT(ITT_PART, name)

static itt_global G = {
	.magic = { 0xED, 0xAB, 0xAB, 0xEC, 0x0D, 0xEE, 0xDA, 0x30 },
	.version_major = 3,
	.version_minor = 0,
#ifdef ITT_OLD
	.version_build = 20180723,
#else
	.version_build = 20250807,
#endif
	.mutex_initialized = 1,
	.mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
};
static itt_domain dummy_domain; /* flags 0: every guarded call is skipped */

static void init_ittlib(void);

static int collector_named(void)
{
	return getenv("INTEL_LIBITTNOTIFY64") != NULL;
}

/* A generic stub: load on first use, then re-dispatch if the collector bound the slot. */
#define STUB(type, name, params, args, ret)                                                \
	static type name##_init params;                                                    \
	type(*P(name##_ptr)) params = name##_init;                                         \
	static type name##_init params                                                     \
	{                                                                                  \
		if (!G.api_initialized && G.thread_list == NULL)                           \
			init_ittlib();                                                     \
		if (P(name##_ptr) && P(name##_ptr) != name##_init)                         \
			return P(name##_ptr) args;                                         \
		return ret;                                                                \
	}

STUB(void, task_begin, (const itt_domain *d, itt_id id, itt_id parent, itt_string_handle *n),
     (d, id, parent, n), (void)0)
STUB(void, task_begin_fn, (const itt_domain *d, itt_id id, itt_id parent, void *fn),
     (d, id, parent, fn), (void)0)
STUB(void, task_begin_overlapped,
     (const itt_domain *d, itt_id id, itt_id parent, itt_string_handle *n), (d, id, parent, n),
     (void)0)
STUB(void, task_end, (const itt_domain *d), (d), (void)0)
STUB(void, task_end_overlapped, (const itt_domain *d, itt_id id), (d, id), (void)0)
STUB(int, event_create, (const char *name, int len), (name, len), 0)
STUB(int, event_start, (int ev), (ev), 0)
STUB(int, event_end, (int ev), (ev), 0)
STUB(void, pause, (void), (), (void)0)
STUB(void, resume, (void), (), (void)0)
STUB(void, thread_set_name, (const char *name), (name), (void)0)
STUB(void, frame_begin_v3, (const itt_domain *d, itt_id *id), (d, id), (void)0)
STUB(void, frame_end_v3, (const itt_domain *d, itt_id *id), (d, id), (void)0)
STUB(void, sync_create, (void *addr, const char *type, const char *name, int attr),
     (addr, type, name, attr), (void)0)

static itt_domain *domain_create_init(const char *name);
itt_domain *(*P(domain_create_ptr))(const char *) = domain_create_init;
static itt_string_handle *string_handle_create_init(const char *name);
itt_string_handle *(*P(string_handle_create_ptr))(const char *) = string_handle_create_init;

static itt_domain *domain_create_init(const char *name)
{
	itt_domain *h = NULL, *tail = NULL;
	itt_domain *(*fn)(const char *);

	if (!name)
		return NULL;
	pthread_mutex_lock(&G.mutex);
	if (G.api_initialized) {
		fn = P(domain_create_ptr);
		pthread_mutex_unlock(&G.mutex);
		return fn && fn != domain_create_init ? fn(name) : &dummy_domain;
	}
	if (collector_named()) {
		for (h = G.domain_list; h; tail = h, h = h->next)
			if (h->nameA && !strcmp(h->nameA, name))
				break;
		if (!h && (h = calloc(1, sizeof(*h)))) {
			h->flags = 1;
			h->nameA = strdup(name);
			if (tail)
				tail->next = h;
			else
				G.domain_list = h;
		}
	}
	pthread_mutex_unlock(&G.mutex);
	return h;
}

static itt_string_handle *string_handle_create_init(const char *name)
{
	itt_string_handle *h = NULL, *tail = NULL;
	itt_string_handle *(*fn)(const char *);

	if (!name)
		return NULL;
	pthread_mutex_lock(&G.mutex);
	if (G.api_initialized) {
		fn = P(string_handle_create_ptr);
		pthread_mutex_unlock(&G.mutex);
		return fn && fn != string_handle_create_init ? fn(name) : NULL;
	}
	if (collector_named()) {
		for (h = G.string_list; h; tail = h, h = h->next)
			if (h->strA && !strcmp(h->strA, name))
				break;
		if (!h && (h = calloc(1, sizeof(*h)))) {
			h->strA = strdup(name);
			if (tail)
				tail->next = h;
			else
				G.string_list = h;
		}
	}
	pthread_mutex_unlock(&G.mutex);
	return h;
}

#define API(name, group, has_static)                                                       \
	{ "__itt_" #name, (void **)&P(name##_ptr), (void *)name##_init,                     \
	  has_static ? (void *)name##_init : NULL, group }

/* Groups as in reference A3; the static implementations' null_func is their stub. */
static itt_api_info api_list[] = {
	API(domain_create, 0x1000, 1),
	API(string_handle_create, 0x1000, 1),
	API(pause, 0x3, 1),
	API(resume, 0x3, 1),
	API(thread_set_name, 0x4, 1),
	API(task_begin, 0x1000, 0),
	API(task_end, 0x1000, 0),
	API(task_begin_fn, 0x1000, 0),
	API(event_create, 0x9, 0),
	API(event_start, 0x9, 0),
	API(event_end, 0x9, 0),
	API(sync_create, 0x10, 0), /* a call the collector does not implement */
#ifndef ITT_OLD
	API(task_begin_overlapped, 0x1000, 0),
	API(task_end_overlapped, 0x1000, 0),
	API(frame_begin_v3, 0x200, 0),
	API(frame_end_v3, 0x200, 0),
#endif
	{ NULL, NULL, NULL, NULL, 0 },
};

static void nullify_all(void)
{
	for (itt_api_info *e = api_list; e->name; e++)
		*e->func_ptr = e->null_func;
}

static void init_ittlib(void)
{
	const char *path;
	void (*api_init)(itt_global *, int);

	pthread_mutex_lock(&G.mutex);
	if (!G.api_initialized) {
		G.api_list_ptr = api_list;
		path = getenv("INTEL_LIBITTNOTIFY64");
		G.state = path ? 3 : 2;
		G.lib = path ? dlopen(path, RTLD_LAZY) : NULL;
		api_init = G.lib ? (void (*)(itt_global *, int))dlsym(G.lib, "__itt_api_init") : NULL;
		if (api_init) {
			api_init(&G, -1 /* __itt_group_all */);
			G.state = 4;
		} else {
			if (path)
				G.state = 1;
			nullify_all();
		}
		G.api_initialized = 1;
	}
	pthread_mutex_unlock(&G.mutex);
}

int P(state)(void)
{
	return G.state;
}

int P(unbound)(void)
{
	int n = 0;

	for (itt_api_info *e = api_list; e->name; e++)
		n += *e->func_ptr == e->init_func && e->init_func != e->null_func;
	return n;
}

int P(bound)(void)
{
	int n = 0;

	for (itt_api_info *e = api_list; e->name; e++)
		n += *e->func_ptr && *e->func_ptr != e->init_func;
	return n;
}
