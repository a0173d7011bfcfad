// SPDX-License-Identifier: MIT
/*
 * lib/instrument/itt.c, the ITT collector, against hand-made static-part globals
 * (lib/instrument/itt.h): binding by name, null_func for the rest, bad globals, two
 * globals; then what the bound calls put on this process's own control page, read back
 * through the profiler's side (lib/sampler/ctlpage.c): kinds, names, ids, tids, the
 * pause ring's how = ITT; and bad handles that record nothing.
 * Built with the library's sources (so a SANITIZE=1 build checks them too).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "instrument/ctlpage.h"
#include "instrument/itt.h"
#include "sampler/sampler.h"

typedef struct itt_domain *(*create_fn)(const char *);
typedef struct itt_string_handle *(*string_fn)(const char *);
typedef void (*begin_fn)(const struct itt_domain *, struct itt_id, struct itt_id,
			 struct itt_string_handle *);
typedef void (*begin_fn_fn)(const struct itt_domain *, struct itt_id, struct itt_id, void *);
typedef void (*end_fn)(const struct itt_domain *);
typedef void (*end_ov_fn)(const struct itt_domain *, struct itt_id);
typedef int (*ev_create_fn)(const char *, int);
typedef int (*ev_fn)(int);
typedef void (*void_fn)(void);
typedef void (*name_fn)(const char *);
typedef int (*thr_name_fn)(const char *, int);
typedef void (*frame_fn)(const struct itt_domain *, struct itt_id *);

/* A static part's table: the slots, and what the table says about them. */
enum { S_DOMAIN, S_STRING, S_BEGIN, S_BEGIN_FN, S_BEGIN_OV, S_END, S_END_OV, S_EVCREATE,
       S_EVSTART, S_EVEND, S_PAUSE, S_RESUME, S_THREAD_NAME, S_THR_NAME, S_FRAME_BEGIN,
       S_FRAME_END, S_UNKNOWN, S_UNKNOWN_NULL, NSLOTS };
static const char *const names[NSLOTS] = {
	"__itt_domain_create", "__itt_string_handle_create", "__itt_task_begin",
	"__itt_task_begin_fn", "__itt_task_begin_overlapped", "__itt_task_end",
	"__itt_task_end_overlapped", "__itt_event_create", "__itt_event_start",
	"__itt_event_end", "__itt_pause", "__itt_resume", "__itt_thread_set_name",
	"__itt_thr_name_set", "__itt_frame_begin_v3", "__itt_frame_end_v3",
	"__itt_sync_create", "__itt_heap_function_create",
};

struct fake {
	struct itt_global g;
	struct itt_api_info list[NSLOTS + 2];
	void *slot[NSLOTS + 1];
};

static char init_stub, null_stub; /* addresses only */

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->g.magic, ITT_MAGIC, 8);
	f->g.version_major = 3;
	f->g.api_list_ptr = f->list;
	for (int i = 0; i < NSLOTS; i++) {
		f->slot[i] = &init_stub;
		f->list[i] = (struct itt_api_info){ names[i], &f->slot[i], &init_stub,
						    i == S_UNKNOWN_NULL ? NULL : &null_stub, 0 };
	}
	/* an entry without a slot must be skipped */
	f->list[NSLOTS] = (struct itt_api_info){ "__itt_task_begin", NULL, NULL, NULL, 0 };
}

static void test_binding(void **state)
{
	struct fake a, b, bad;

	(void)state;
	fake_init(&a);
	fake_init(&b);
	fake_init(&bad);
	__itt_api_init(&a.g, -1);
	for (int i = 0; i < S_UNKNOWN; i++) {
		assert_non_null(a.slot[i]);
		assert_ptr_not_equal(a.slot[i], &init_stub);
		assert_ptr_not_equal(a.slot[i], &null_stub);
	}
	assert_ptr_equal(a.slot[S_UNKNOWN], &null_stub);
	assert_null(a.slot[S_UNKNOWN_NULL]);
	/* a second global gets its own table filled, with the same functions */
	__itt_api_init(&b.g, -1);
	for (int i = 0; i < NSLOTS; i++)
		assert_ptr_equal(a.slot[i], b.slot[i]);
	/* not a global: left alone */
	bad.g.magic[0] = 0;
	__itt_api_init(&bad.g, -1);
	assert_ptr_equal(bad.slot[S_BEGIN], &init_stub);
	__itt_api_init(NULL, -1);
	__itt_api_fini(&a.g);
	__itt_api_fini(NULL);
}

/* ---- records ---- */

#define MAXREC 64
struct seen {
	struct uprof_ctl_record rec[MAXREC];
	int n;
};

/* every string the page published so far (they are handed out once) */
static struct {
	char str[64][64];
	uint32_t id[64];
	int n;
} strs;

static void on_rec(void *arg, const struct uprof_ctl_record *r)
{
	struct seen *s = arg;

	if (s->n < MAXREC)
		s->rec[s->n++] = *r;
}

static int on_str(void *arg, uint32_t id, const char *str, size_t len)
{
	(void)arg;
	if (strs.n < 64) {
		snprintf(strs.str[strs.n], sizeof(strs.str[0]), "%.*s", (int)len, str);
		strs.id[strs.n++] = id;
	}
	return 0;
}

static const char *str_of(const struct seen *s, uint32_t id)
{
	(void)s;
	for (int i = 0; i < strs.n; i++)
		if (strs.id[i] == id)
			return strs.str[i];
	return "?";
}

static struct fake F;
static struct smp_page *page;
static char token[64];

static void drain(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	smp_page_strings(page, on_str, s);
	smp_page_drain(page, false, on_rec, s);
	smp_page_strings(page, on_str, s);
}

static int setup_page(void **state)
{
	struct itt_domain *early = calloc(1, sizeof(*early));
	struct itt_string_handle *early_s = calloc(1, sizeof(*early_s));

	(void)state;
	snprintf(token, sizeof(token), "test_itt.%d", (int)getpid());
	setenv("UPROF_SESSION", token, 1); /* launch mode: records kept until we attach */
	unsetenv("AMDUPROF_INSTRUMENT_ENABLE");
	fake_init(&F);
	/* made by the static part before it loaded us */
	early->flags = 1;
	early->nameA = "Early";
	early_s->strA = "EarlyTask";
	F.g.domain_list = early;
	F.g.string_list = early_s;
	__itt_api_init(&F.g, -1);
	/* the first call sets up the page */
	((void_fn)F.slot[S_RESUME])();
	return smp_page_open(&page, getpid(), token, 1) ? -1 : 0;
}

static int teardown_page(void **state)
{
	(void)state;
	smp_page_close(page);
	free((void *)F.g.domain_list);
	free((void *)F.g.string_list);
	return 0;
}

static const struct itt_id null_id;

static void test_records(void **state)
{
	struct itt_domain *d = ((create_fn)F.slot[S_DOMAIN])("Dom");
	struct itt_string_handle *t = ((string_fn)F.slot[S_STRING])("Task");
	uint32_t tid = (uint32_t)syscall(SYS_gettid);
	struct itt_id id = { 1, 2, 3 };
	struct seen s;
	int ev;

	(void)state;
	assert_non_null(d);
	assert_int_equal(d->flags, 1);
	assert_string_equal(d->nameA, "Dom");
	assert_string_equal(t->strA, "Task");
	/* the same name gives the same object */
	assert_ptr_equal(((create_fn)F.slot[S_DOMAIN])("Dom"), d);
	assert_ptr_equal(((string_fn)F.slot[S_STRING])("Task"), t);

	((begin_fn)F.slot[S_BEGIN])(d, id, null_id, t);
	((end_fn)F.slot[S_END])(d);
	((begin_fn)F.slot[S_BEGIN])(F.g.domain_list, null_id, null_id, F.g.string_list);
	((end_fn)F.slot[S_END])(F.g.domain_list);
	((begin_fn_fn)F.slot[S_BEGIN_FN])(d, null_id, null_id, (void *)test_records);
	((end_ov_fn)F.slot[S_END_OV])(d, id);
	((begin_fn)F.slot[S_BEGIN_OV])(d, id, null_id, t);
	((frame_fn)F.slot[S_FRAME_BEGIN])(d, NULL);
	((frame_fn)F.slot[S_FRAME_END])(d, NULL);
	ev = ((ev_create_fn)F.slot[S_EVCREATE])("EvXYZ", 2);
	assert_true(ev > 0);
	assert_int_equal(((ev_create_fn)F.slot[S_EVCREATE])("Ev", 0), ev);
	((ev_fn)F.slot[S_EVSTART])(ev);
	((ev_fn)F.slot[S_EVEND])(ev);
	((name_fn)F.slot[S_THREAD_NAME])("a thread name longer than fifteen");
	((thr_name_fn)F.slot[S_THR_NAME])("Short-ish#123456", 9);

	drain(&s);
	assert_int_equal(s.n, 13);
	for (int i = 0; i < s.n; i++)
		assert_int_equal(s.rec[i].tid, tid);
	assert_int_equal(s.rec[0].kind, UPROF_REC_TASK_BEGIN);
	assert_string_equal(str_of(&s, s.rec[0].domain), "Dom");
	assert_string_equal(str_of(&s, s.rec[0].name), "Task");
	assert_int_equal(s.rec[1].kind, UPROF_REC_TASK_END);
	assert_int_equal(s.rec[1].domain, s.rec[0].domain);
	/* the static part's own objects, read as {flags, nameA} / {strA} */
	assert_string_equal(str_of(&s, s.rec[2].domain), "Early");
	assert_string_equal(str_of(&s, s.rec[2].name), "EarlyTask");
	assert_int_equal(s.rec[3].kind, UPROF_REC_TASK_END);
	assert_int_equal(s.rec[3].domain, s.rec[2].domain);
	/* task_begin_fn: named by its symbol when dladdr knows it, else by its address */
	assert_int_equal(s.rec[4].kind, UPROF_REC_TASK_BEGIN);
	assert_true(!strcmp(str_of(&s, s.rec[4].name), "test_records") ||
		    !strncmp(str_of(&s, s.rec[4].name), "0x", 2));
	assert_int_equal(s.rec[5].kind, UPROF_REC_TASK_END);
	assert_int_equal(s.rec[6].kind, UPROF_REC_TASK_BEGIN);
	assert_string_equal(str_of(&s, s.rec[7].name), "Frame");
	assert_int_equal(s.rec[7].domain, s.rec[0].domain);
	assert_int_equal(s.rec[8].kind, UPROF_REC_TASK_END);
	assert_int_equal(s.rec[9].kind, UPROF_REC_EVENT_START);
	assert_int_equal(s.rec[9].domain, 0);
	assert_string_equal(str_of(&s, s.rec[9].name), "Ev");
	assert_int_equal(s.rec[10].kind, UPROF_REC_EVENT_END);
	assert_int_equal(s.rec[11].kind, UPROF_REC_THREAD_NAME);
	assert_string_equal(str_of(&s, s.rec[11].name), "a thread name longer than fifteen");
	assert_string_equal(str_of(&s, s.rec[12].name), "Short-ish");
}

static void test_pause_ring(void **state)
{
	struct seen s = { .n = 0 };

	(void)state;
	smp_page_drain(page, true, on_rec, &s); /* what setup's resume left */
	s.n = 0;
	((void_fn)F.slot[S_PAUSE])();
	((void_fn)F.slot[S_RESUME])();
	smp_page_drain(page, true, on_rec, &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].kind, UPROF_REC_PAUSE);
	assert_int_equal(s.rec[0].how, UPROF_HOW_ITT);
	assert_int_equal(s.rec[1].kind, UPROF_REC_RESUME);
	assert_int_equal(s.rec[1].how, UPROF_HOW_ITT);
}

static void test_bad_handles(void **state)
{
	struct itt_domain off = { .flags = 0, .nameA = "Off" }, nameless = { .flags = 1 };
	struct itt_domain *d = ((create_fn)F.slot[S_DOMAIN])("Dom");
	struct itt_string_handle noname = { .strA = NULL };
	struct seen s;

	(void)state;
	assert_null(((create_fn)F.slot[S_DOMAIN])(NULL));
	assert_null(((string_fn)F.slot[S_STRING])(NULL));
	assert_true(((ev_create_fn)F.slot[S_EVCREATE])(NULL, 3) < 0);
	((begin_fn)F.slot[S_BEGIN])(NULL, null_id, null_id, NULL);
	((begin_fn)F.slot[S_BEGIN])(d, null_id, null_id, NULL);
	((begin_fn)F.slot[S_BEGIN])(d, null_id, null_id, &noname);
	((begin_fn)F.slot[S_BEGIN])(&off, null_id, null_id, F.g.string_list);
	((begin_fn)F.slot[S_BEGIN])(&nameless, null_id, null_id, F.g.string_list);
	((begin_fn_fn)F.slot[S_BEGIN_FN])(d, null_id, null_id, NULL);
	((end_fn)F.slot[S_END])(NULL);
	((end_fn)F.slot[S_END])(&off);
	((end_fn)F.slot[S_END])(&nameless);
	((frame_fn)F.slot[S_FRAME_BEGIN])(NULL, NULL);
	((ev_fn)F.slot[S_EVSTART])(0);
	((ev_fn)F.slot[S_EVSTART])(-1);
	((ev_fn)F.slot[S_EVEND])(1 << 30);
	((name_fn)F.slot[S_THREAD_NAME])(NULL);
	((thr_name_fn)F.slot[S_THR_NAME])(NULL, 4);
	drain(&s);
	assert_int_equal(s.n, 0);
}

/* a foreign handle is resolved once and cached: same pointer, same id; a foreign
 * domain with the name of one of ours shares its id */
static void test_foreign_cache(void **state)
{
	struct itt_domain stranger = { .flags = 1, .nameA = "Dom" };
	struct itt_string_handle sh = { .strA = "Task" };
	struct itt_domain *d = ((create_fn)F.slot[S_DOMAIN])("Dom");
	struct seen s;

	(void)state;
	for (int i = 0; i < 3; i++) {
		((begin_fn)F.slot[S_BEGIN])(&stranger, null_id, null_id, &sh);
		((end_fn)F.slot[S_END])(&stranger);
	}
	((begin_fn)F.slot[S_BEGIN])(d, null_id, null_id, &sh);
	drain(&s);
	assert_int_equal(s.n, 7);
	for (int i = 1; i < s.n; i++)
		assert_int_equal(s.rec[i].domain, s.rec[0].domain);
	assert_string_equal(str_of(&s, s.rec[0].domain), "Dom");
	assert_int_equal(s.rec[6].name, s.rec[0].name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binding),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_pause_ring),
		cmocka_unit_test(test_bad_handles),
		cmocka_unit_test(test_foreign_cache),
	};

	return cmocka_run_group_tests(tests, setup_page, teardown_page);
}
