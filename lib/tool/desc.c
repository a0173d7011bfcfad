// SPDX-License-Identifier: MIT
/*
 * Descriptor checks: what a tool registered is read only as far as its own size says,
 * against the rules of uprof_tool.h (libpfm's pfmlib_check_struct and Score-P's zero
 * padding are the model): a known major version, a size from API 1.0's up, a name, zero
 * reserved slots, and nothing set that this uprof does not have. A tool of an older minor
 * version simply has zeros (NULL callbacks) where later versions added fields.
 */
#include "tool/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(struct uprof_tool_desc) >= TOOL_DESC_MIN_SIZE,
	       "the descriptor only grows: API 1.0's was 232 bytes");

static int refuse(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EPROTO;
}

/* Names go into section titles and a directory name: letters, digits, '.', '-', '_'. */
static bool good_name(const char *s)
{
	size_t n = strnlen(s, 64);

	if (!n || n == 64 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return false;
	return true;
}

int tool_desc_check(const struct uprof_tool_desc *d, struct uprof_tool_desc *out, char *err,
		    size_t errlen)
{
	uint32_t major, minor, size;

	memset(out, 0, sizeof(*out));
	if (!d)
		return refuse(err, errlen, "registered no descriptor");
	size = d->size;
	major = d->api_version >> 16;
	minor = d->api_version & 0xffff;
	if (!d->api_version)
		return refuse(err, errlen,
			      "its descriptor has no api_version (start from "
			      "UPROF_TOOL_DESC_INIT)");
	if (major != UPROF_TOOL_API_MAJOR)
		return refuse(err, errlen,
			      "built for tool API %u.%u; this uprof has API %d.%d "
			      "(rebuild the tool against its uprof_tool.h)",
			      major, minor, UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR);
	if (size < TOOL_DESC_MIN_SIZE || size > TOOL_DESC_MAX_SIZE)
		return refuse(err, errlen,
			      "its descriptor says it is %u bytes; API %d.x "
			      "descriptors are %u to %u (start from UPROF_TOOL_DESC_INIT)",
			      size, UPROF_TOOL_API_MAJOR, TOOL_DESC_MIN_SIZE, TOOL_DESC_MAX_SIZE);
	/* a newer minor version's fields past ours: usable only if it uses none of them */
	for (uint32_t i = sizeof(*d); i < size; i++)
		if (((const unsigned char *)d)[i])
			return refuse(err, errlen,
				      "built for tool API %u.%u and uses what it added; "
				      "this uprof has API %d.%d (upgrade uprof)",
				      major, minor, UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR);
	memcpy(out, d, size < sizeof(*out) ? size : sizeof(*out));
	out->size = sizeof(*out);
	for (size_t i = 0; i < sizeof(out->reserved) / sizeof(out->reserved[0]); i++)
		if (out->reserved[i])
			return refuse(err, errlen,
				      "reserved slot %zu of its descriptor is not zero (%s)", i,
				      minor > UPROF_TOOL_API_MINOR
					      ? "a later API version's callback: upgrade uprof"
					      : "zero the descriptor: UPROF_TOOL_DESC_INIT");
	/* a slot is called only by the minor version that gave it its meaning, and only for a
	 * tool that declares that version: an older tool's garbage there is no callback */
	if (out->openmp_region && minor < 2)
		return refuse(
			err, errlen,
			"sets openmp_region, a slot its tool API %u.%u reserves (its argument "
			"is API 1.2's: rebuild against this uprof_tool.h)",
			major, minor);
	if (out->filter_sample && minor < 2)
		return refuse(err, errlen,
			      "reserved slot 0 of its descriptor is not zero (its tool API %u.%u "
			      "reserves it; API 1.2's filter_sample: rebuild against this "
			      "uprof_tool.h)",
			      major, minor);
	if ((out->os_thread || out->os_syscall) && minor < 3)
		return refuse(err, errlen,
			      "reserved slot %d of its descriptor is not zero (its tool API %u.%u "
			      "reserves it; API 1.3's %s: rebuild against this uprof_tool.h)",
			      /* numbered as the tool's version numbers them */
			      (out->os_thread ? 0 : 1) + (minor < 2), major, minor,
			      out->os_thread ? "os_thread" : "os_syscall");
	if ((out->mpi_call || out->mpi_rank) && minor < 3)
		return refuse(err, errlen,
			      "sets %s, a slot its tool API %u.%u reserves (its argument is API "
			      "1.3's: rebuild against this uprof_tool.h)",
			      out->mpi_call ? "mpi_call" : "mpi_rank", major, minor);
	if ((out->mpi_site || out->mpi_event) && minor < 4)
		return refuse(err, errlen,
			      "sets %s, a slot its tool API %u.%u reserves (its argument is API "
			      "1.4's: rebuild against this uprof_tool.h)",
			      out->mpi_site ? "mpi_site" : "mpi_event", major, minor);
	if (!out->name || !good_name(out->name))
		return refuse(err, errlen,
			      "its descriptor has %s name (1-63 letters, digits, "
			      "'.', '-', '_', not starting with '.')",
			      out->name ? "a bad" : "no");
	return 0;
}
