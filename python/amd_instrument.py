# SPDX-License-Identifier: MIT
"""Domain/task instrumentation and profile control for Python programs profiled by uprof.

The same API as AMD uProf's amd_instrument module, over libAMDProfileController.so
(loaded with ctypes), so tasks and pauses land in the same report as those of C code:

    import amd_instrument as a

    # group 1: a "<domain>::<task>" string begins a task; the domain's name ends it
    a.amd_start_task("high_compute::img_segmentation")
    ...
    a.amd_end_task("high_compute")

    # group 2: a domain handle, and task names
    d = a.domain_create("high_compute")
    a.task_begin(d, "img_segmentation")
    ...
    a.task_end(d)

    # profile control (run with: uprof collect --start-paused ...)
    a.amd_profile_resume(); ...; a.amd_profile_pause()               # returns at once
    a.amd_profile_strict_resume(); ...; a.amd_profile_strict_pause() # waits until applied

A task end closes the latest open task of that domain on the calling thread. In
"<domain>::<task>" the domain is the text before the first "::" and the task the rest;
both must be non-empty, and neither may contain a comma (such calls are ignored, with
one warning). uProf says not to mix the two groups of task calls in one program.

The library is looked for in $AMDUPROF_LIB (which uprof collect sets to its own library,
so a source tree's python/ works under it), then next to this module (lib/python/ ->
lib/), then on the dynamic linker's path. Without it every call does nothing, after one
warning on stderr. See uprof-itt(7).
"""

import ctypes
import ctypes.util
import os
import sys

__all__ = [
    "amd_start_task", "amd_end_task",
    "domain_create", "task_begin", "task_end",
    "amd_profile_resume", "amd_profile_pause",
    "amd_profile_strict_resume", "amd_profile_strict_pause",
]

_LIBNAME = "libAMDProfileController.so"
_warned = set()


def _warn(key, msg):
    if key not in _warned:
        _warned.add(key)
        sys.stderr.write("amd_instrument: %s\n" % msg)


def _candidates():
    env = os.environ.get("AMDUPROF_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, os.pardir, _LIBNAME)
    found = ctypes.util.find_library("AMDProfileController")
    if found:
        yield found
    yield _LIBNAME


def _load():
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        try:
            vp, cp = ctypes.c_void_p, ctypes.c_char_p
            for name in ("amdDomainCreate", "amdStringHandleCreate"):
                fn = getattr(lib, name)
                fn.argtypes, fn.restype = [cp], vp
            lib.AMDTaskBegin.argtypes = [cp, cp, ctypes.c_int, vp, ctypes.c_ulonglong,
                                         ctypes.c_ulonglong, vp]
            lib.AMDTaskBegin.restype = None
            lib.AMDTaskEnd.argtypes = [cp, cp, ctypes.c_int, vp]
            lib.AMDTaskEnd.restype = None
            for name in ("amdProfileResumeImpl", "amdProfilePauseImpl",
                         "amdProfileStrictResumeImpl", "amdProfileStrictPauseImpl"):
                fn = getattr(lib, name)
                fn.argtypes, fn.restype = [], ctypes.c_bool
        except AttributeError:
            continue  # some other library of that name
        return lib
    _warn("lib", "%s not found (set AMDUPROF_LIB); instrumentation calls do nothing"
          % _LIBNAME)
    return None


_lib = _load()
_domains = {}  # name -> handle (group 1, and domain_create: one handle per name)
_strings = {}  # task name -> handle


def _bytes(name, what):
    if not isinstance(name, str) or not name:
        _warn("empty-" + what, "%s name must be a non-empty string: %r ignored"
              % (what, name))
        return None
    if "," in name:
        _warn("comma", "names may not contain a comma: %r ignored" % name)
        return None
    return name.encode("utf-8", "replace")


def _handle(table, create, name, what):
    h = table.get(name)
    if h is None:
        b = _bytes(name, what)
        if b is None:
            return None
        h = create(b)
        if h:
            table[name] = h
    return h


class Domain(object):
    """A domain handle, from domain_create()."""
    __slots__ = ("name", "_h")

    def __init__(self, name, handle):
        self.name, self._h = name, handle

    def __repr__(self):
        return "<amd_instrument.Domain %r>" % self.name


def _domain(name):
    return _handle(_domains, _lib.amdDomainCreate, name, "domain")


def _begin(dh, task):
    th = _handle(_strings, _lib.amdStringHandleCreate, task, "task")
    if dh and th:
        _lib.AMDTaskBegin(None, None, 0, dh, 0, 0, th)


def _end(dh):
    if dh:
        _lib.AMDTaskEnd(None, None, 0, dh)


# ---- group 1 ----

def amd_start_task(domain_task_name):
    """Begin task <task> of domain <domain>, given as "<domain>::<task>"."""
    if _lib is None:
        return
    domain, sep, task = (domain_task_name if isinstance(domain_task_name, str)
                         else "").partition("::")
    if not sep or not domain or not task:
        _warn("sep", 'amd_start_task needs "<domain>::<task>": %r ignored'
              % (domain_task_name,))
        return
    _begin(_domain(domain), task)


def amd_end_task(domain):
    """End the latest task of @domain (a name) begun on this thread."""
    if _lib is None:
        return
    _end(_domain(domain))


# ---- group 2 ----

def domain_create(name):
    """A handle for domain @name (the same handle for the same name)."""
    if _lib is None:
        return Domain(name, None)
    return Domain(name, _domain(name))


def task_begin(domain, task_name):
    """Begin task @task_name in @domain (from domain_create())."""
    if _lib is None or not isinstance(domain, Domain):
        return
    _begin(domain._h, task_name)


def task_end(domain):
    """End the latest task of @domain (from domain_create()) begun on this thread."""
    if _lib is None or not isinstance(domain, Domain):
        return
    _end(domain._h)


# ---- profile control ----

def amd_profile_resume():
    """Resume profiling (group 1: returns at once). True."""
    return _lib.amdProfileResumeImpl() if _lib is not None else True


def amd_profile_pause():
    """Pause profiling (group 1: returns at once). True."""
    return _lib.amdProfilePauseImpl() if _lib is not None else True


def amd_profile_strict_resume():
    """Resume profiling and wait until the profiler applied it. False on timeout."""
    return _lib.amdProfileStrictResumeImpl() if _lib is not None else True


def amd_profile_strict_pause():
    """Pause profiling and wait until the profiler applied it. False on timeout."""
    return _lib.amdProfileStrictPauseImpl() if _lib is not None else True
