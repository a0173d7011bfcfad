/* SPDX-License-Identifier: MIT */
/*
 * lib/util: the small containers and writers the other libraries share, so that each has
 * one home:
 * - a string-keyed map (strmap.c): modules by path, interned names; open addressing on
 *   FNV-1a, keys copied and owned by the map;
 * - a hash from a (a, b, c) key to a u64 (hash.c): report's container for tallies;
 * - a growing string (sbuf.c);
 * - escaping for CSV, XML/HTML and JSON (escape.c): the one CSV quoter and the one HTML
 *   escaper of uprof, with the differences its writers need named as options;
 * - files under a directory held open (dirfd.c): the directory-fd rule of DESIGN §4;
 * - the hex digit reader of the text parsers (header-only, so each parser and its fuzz
 *   target stays a single source file).
 * Nothing here prints on its own or exits; constructors fail with -ENOMEM or NULL.
 */
#ifndef UPROF_UTIL_H
#define UPROF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

/* ---- strmap.c: string keys ---- */

struct util_strmap_ent {
	uint64_t hash;
	char *key; /* NULL: empty slot */
	void *val;
};

/* Zero-initialised is empty. */
struct util_strmap {
	struct util_strmap_ent *e;
	size_t cap, n; /* cap is a power of two */
};

/* FNV-1a of a string. */
uint64_t util_fnv(const char *s);

/* The value of @key, or NULL when absent. */
void *util_strmap_get(const struct util_strmap *m, const char *key);
/* Map @key (copied) to @val (borrowed: the caller owns what it points to). 0, -EEXIST
 * when @key is mapped already (nothing changes), -ENOMEM. */
int util_strmap_put(struct util_strmap *m, const char *key, void *val);
/* The map's own copy of @key, made (with a NULL value) if absent: equal strings get one
 * pointer, valid until the map is released. NULL on out-of-memory. */
const char *util_strmap_intern(struct util_strmap *m, const char *key);
/* Every value, in no particular order (to free them). */
#define util_strmap_for_each(m, ent) \
	for (struct util_strmap_ent *ent = (m)->e; ent && ent < (m)->e + (m)->cap; ent++) \
		if (ent->key)
/* Free the keys and the table; the values are the caller's. Safe twice. */
void util_strmap_release(struct util_strmap *m);

/* ---- hash.c: open-addressing hash from a (a, b, c) key to a u64 ---- */

struct util_hent {
	uint64_t a, b, c;
	uint64_t val;
	bool used;
};

/* Zero-initialised is empty. */
struct util_hash {
	struct util_hent *e;
	size_t cap, n;
};

/* The value slot for (a, b, c), created as 0 if absent. NULL only when out of memory. */
uint64_t *util_hash_slot(struct util_hash *h, uint64_t a, uint64_t b, uint64_t c);
/* The value for (a, b, c) or NULL. */
uint64_t *util_hash_find(const struct util_hash *h, uint64_t a, uint64_t b, uint64_t c);
/* Free the table. Safe twice. */
void util_hash_release(struct util_hash *h);
/* Add @n to the value of (a, b, 0). 0 or -ENOMEM. */
int util_hash_add(struct util_hash *h, uint64_t a, uint64_t b, uint64_t n);

/* ---- sbuf.c: a growing string ---- */

/* {0} is empty; free(b.s) when done (s is NUL-terminated once anything was added). */
struct util_sbuf {
	char *s;
	size_t len, cap;
};

/* Append @n bytes of @s. 0 or -ENOMEM. */
int util_sbuf_add(struct util_sbuf *b, const char *s, size_t n);

/* ---- escape.c: text for CSV, XML/HTML and JSON ---- */

enum util_escape {
	UTIL_ESC_XML,	     /* XML/HTML attribute or text: & < > " ' as entities */
	UTIL_ESC_JSON,	     /* a JSON string's contents */
	UTIL_ESC_JSON_FRAME, /* a frame in a JSON string of ';'-separated frames: ';' as ':' */
	UTIL_ESC_CSV,	     /* a quoted CSV cell's contents (without the quotes) */
	UTIL_ESC_TEXT,	     /* plain text on one line (a CSV section title: quotes kept) */
	/* HTML text and attribute values as pcm's page writes them: & < > " as entities,
	 * every other byte as it is (no UTF-8 check, ' and control bytes kept). The page
	 * shows pcm's own CSV, which it wrote from counter names and numbers. */
	UTIL_ESC_HTML_PLAIN,
	/* a JSON string's contents inside an HTML <script> element (the HTML report's data):
	 * as UTIL_ESC_JSON, and < > & as \u003c \u003e \u0026, so no name ends the element */
	UTIL_ESC_JSON_HTML,
};

/* @s escaped as @how. But for UTIL_ESC_HTML_PLAIN, bytes that are not valid UTF-8 and
 * control characters become U+FFFD / '?' (CSV and text: a space for line breaks) so the
 * output always parses, also as UTF-8. */
void util_put_escaped(FILE *f, const char *s, enum util_escape how);
/* The same for at most @n bytes of @s (it stops early at a NUL). */
void util_put_escaped_n(FILE *f, const char *s, size_t n, enum util_escape how);

/* Split the CSV line [@p, @p+@len) into NUL-terminated cells in @store (at least @len + @max
 * bytes), unquoting "..." cells ("" inside is a quote); @cells gets their starts. The
 * count, or -1 (more than @max cells, or a quote left open). */
int util_csv_split(const char *p, size_t len, char *store, char **cells, int max);

/* How a CSV cell is quoted. */
enum util_csv_quoting {
	/* Always quoted, UTIL_ESC_CSV inside: report.csv and everything that reads like it
	 * (names from targets may be any bytes). NULL is "". */
	UTIL_CSV_ALWAYS,
	/* Quoted only when it holds a comma, a quote or a newline; quotes doubled, every
	 * other byte as it is (pcm's CSV: counter and component names). */
	UTIL_CSV_WHEN_NEEDED,
	/* Quoted only when it holds a comma, a quote, a newline or a CR; quotes doubled,
	 * newlines and CRs dropped (roofline files: their reader takes one line per row
	 * and refuses a CR inside a line). */
	UTIL_CSV_WHEN_NEEDED_ONE_LINE,
};

/* @s as one CSV cell, quoted as @q. */
void util_csv_cell(FILE *f, const char *s, enum util_csv_quoting q);
/* util_csv_cell(@f, @s, UTIL_CSV_ALWAYS): the report's cell. */
void util_csv_quoted(FILE *f, const char *s);
/* A report header line 'Key:,"value"' (the value quoted as util_csv_quoted), and the same
 * with the value formatted (cut at 1023 bytes). */
void util_csv_kv(FILE *f, const char *key, const char *value);
void util_csv_kvf(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- dirfd.c: files under a directory held open (docs/DESIGN.md §4) ----
 * Every name under a directory another user may write is resolved relative to an fd of
 * that directory, opened once: beneath it, no symlink followed on any component, ".."
 * refused. @rel may have several components ("openmp/123.ompt"). All return an fd or 0,
 * or -errno; O_CLOEXEC is always added. */

/* Open the directory @path as the user named it (symlinks in it followed: the user's own
 * words), once; and the same refusing a symlink as its last component. */
int util_dir_open(const char *path);
int util_dir_open_nofollow(const char *path);
/* openat2(@dfd, @rel, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) with @flags | O_NOFOLLOW. */
int util_at_open(int dfd, const char *rel, int flags, mode_t mode);
/* A directory beneath @dfd, for reading and as a dirfd (-ELOOP: a symlink there). */
int util_at_dir(int dfd, const char *rel);
/* Open or create a file beneath @dfd with O_CREAT | @flags (add O_EXCL for a new one),
 * and set its mode to @mode with fchmod whatever the umask. A file that was there is
 * taken only when it is a plain file of ours with one name (else -EINVAL, -EPERM,
 * -EMLINK), and only then truncated (O_TRUNC). */
int util_at_create(int dfd, const char *rel, int flags, mode_t mode);
/* mkdirat then open it (O_NOFOLLOW) and check it is a directory owned by us (-EPERM when
 * another user's was put there), its mode set to @mode by fchmod. @may_exist: an existing
 * directory of ours is taken (mkdir -p), else -EEXIST. Returns its fd. */
int util_at_mkdir(int dfd, const char *rel, mode_t mode, bool may_exist);
/* A stdio stream on a file beneath @dfd. @how: "r" (a regular file only: a FIFO or device
 * put there is refused with EINVAL, never waited on), "w" (create or truncate), "wx"
 * (create, refuse an existing name), "a" (append). Created files get @mode. NULL and
 * errno on failure. */
FILE *util_at_fopen(int dfd, const char *rel, const char *how, mode_t mode);
/* unlinkat / renameat beneath @dfd (a symlink is removed or replaced, never followed). */
int util_at_unlink(int dfd, const char *rel, int flags);
int util_at_rename(int dfd, const char *from, const char *to);
/* Atomic replacement of @rel: open a new temporary file (O_EXCL, mode @mode; its name into
 * @tmp), write it, then commit: fsync when @sync, close @fd, renameat over @rel (the temp
 * file is removed on failure). */
int util_at_replace_open(int dfd, const char *rel, mode_t mode, char *tmp, size_t tmplen);
int util_at_replace_commit(int dfd, const char *tmp, const char *rel, int fd, bool sync);
/* The same through an unnamed file (tmpfile.c): util_at_tmpfile opens one beneath @dfd
 * (O_TMPFILE, mode @mode; -EOPNOTSUPP and the like where the file system has none: use
 * util_at_replace_open), util_at_tmpfile_commit syncs it when @sync, names it @tmp and
 * renames that over @rel, and closes @fd. A writer killed before the commit leaves no
 * file; @tmp exists only between a link and a rename. 0 or -errno. */
int util_at_tmpfile(int dfd, mode_t mode);
int util_at_tmpfile_commit(int dfd, int fd, const char *tmp, const char *rel, bool sync);
/* The same with a stdio stream: util_at_replace_fopen (NULL and errno on failure), then
 * util_at_replace_fcommit with @ret the writer's result (0 or -errno): fclose, and the
 * rename only when all went well (else the temp file is removed). 0 or -errno. */
FILE *util_at_replace_fopen(int dfd, const char *rel, mode_t mode, char *tmp, size_t tmplen);
/* @fd (or -errno, passed on) as a stdio stream of @mode: NULL and errno set on failure,
 * the fd then closed. */
FILE *util_fdopen(int fd, const char *mode);
int util_at_replace_fcommit(int dfd, const char *tmp, const char *rel, FILE *f, int ret);
/* The whole regular file @rel (at most @max bytes, else -EFBIG; not regular: -EINVAL),
 * NUL-terminated in a malloc'd *@out of *@outlen bytes. */
int util_at_read_all(int dfd, const char *rel, size_t max, char **out, size_t *outlen);
/* The same for the open file @fd (taken over: closed here; a negative @fd, -errno of a
 * failed open, is returned as it is): what reads a file a user named by path uses. */
int util_fd_read_all(int fd, size_t max, char **out, size_t *outlen);
/* Can a user other than us make or rename names in the directory @dfd? (group or world
 * writable, or owned by another user who is not root): collect warns about -o there. */
bool util_dir_others_can_write(int dfd);

/* ---- text parsing ---- */

/* The value of hex digit @c, or -1: the one digit reader of the text parsers (kallsyms,
 * perf maps). */
static inline int util_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* ---- sorting ---- */

/* qsort() that accepts an empty array: C says qsort's base must point to an array even
 * when @n is 0 (UBSan's nonnull check fires on qsort(NULL, 0, ...)), and an empty table
 * is NULL in our growing arrays. The one way lib/ sorts. */
static inline void util_qsort(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
