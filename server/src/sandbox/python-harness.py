# The Python half of the sandbox. python-worker.mjs runs this file once in
# every fresh interpreter, before any learner code: it closes the JS bridge,
# blocks dangerous modules and process spawning at the Python level, empties
# the environment, reseeds `random`, and defines json_of_result.
#
# It does not drive runs. The worker compiles, executes and calls the learner's
# code from JavaScript through C-level callables (builtins.compile and exec,
# itertools.starmap), so no frame of this file is ever under learner code:
# `sys._getframe(1)` in learner code finds no caller. Learner code can still
# reach the objects defined here (through sys.meta_path or gc.get_objects())
# and change them, but only inside its own interpreter, which the worker
# discards after the run: the next run gets a new one. Python cannot sandbox
# itself, so nothing here relies on being out of reach.
#
# Python-level blocks are one layer only. The real guards sit below, in
# JavaScript (see host-lockdown.mjs and pyodide-file-system.mjs): no child
# processes, no sockets, no writes outside /tmp, a capped heap and no route
# from a JS object back to the host's globals.
#
# Expected values never enter the sandbox: the worker only reports what the
# learner's function returned, as JSON text; the host compares. So tampering
# with this file cannot turn a wrong answer into a right one.

import gc
import json
import os
import random
import sys

SCRATCH_DIR = '/tmp'
MAX_RESULT_DEPTH = 64
RECURSION_LIMIT = 1000
# Python-to-Python calls do not use the WebAssembly stack, but calls through C
# (a key function, a __repr__) do, and it overflows a little above 1500 levels.
MAX_RECURSION_LIMIT = 1500

# Whole packages refused to learner code: the JS bridge, packages that fetch,
# native-code and process/network access.
BLOCKED_PACKAGES = frozenset({
    'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip',
    'pyodide_http', 'ctypes', '_ctypes', 'socket', '_socket', 'select',
    'selectors', 'ssl', '_ssl', 'subprocess', '_posixsubprocess',
    'multiprocessing', '_multiprocessing', 'webbrowser', 'asyncio',
})


class SandboxViolation(PermissionError):
    """Learner code asked for something the sandbox refuses (a process, the JS bridge...)."""


class ForbiddenImportError(ModuleNotFoundError):
    """An import of a blocked module. A ModuleNotFoundError, so `except ImportError` still works."""


class _BlockedImportFinder:
    """First on sys.meta_path: refuses blocked packages before any real finder sees them."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition('.')[0] in BLOCKED_PACKAGES:
            raise ForbiddenImportError(f"import of '{name}' is not allowed in the sandbox", name=name)
        return None


def _refuse(what):
    def refused(*args, **kwargs):
        raise SandboxViolation(f'{what} is not allowed in the sandbox')
    refused.__name__ = what
    return refused


def _close_process_spawning():
    # In Node, Emscripten's system() really runs a host shell; the worker stubs
    # child_process too, this gives learners a clear error first. os._exit
    # would stop Emscripten's runtime under the worker's feet.
    names = ('system', 'popen', '_exit', 'fork', 'forkpty', 'vfork', 'kill', 'killpg',
             'posix_spawn', 'posix_spawnp', 'spawnl', 'spawnle', 'spawnlp',
             'spawnlpe', 'spawnv', 'spawnve', 'spawnvp', 'spawnvpe', 'execl',
             'execle', 'execlp', 'execlpe', 'execv', 'execve', 'execvp', 'execvpe')
    posix = sys.modules.get('posix')
    for name in names:
        for module in (os, posix):
            if module is not None and hasattr(module, name):
                setattr(module, name, _refuse(f'os.{name}'))


def _close_js_bridge():
    # Drop every module that holds a JsProxy (js, pyodide_js, pyodide.*,
    # _pyodide.*). The worker also unregisters `js` and `pyodide_js` on its side.
    for name in list(sys.modules):
        if name.partition('.')[0] in BLOCKED_PACKAGES:
            del sys.modules[name]
    sys.meta_path[:] = [_BlockedImportFinder] + [
        finder for finder in sys.meta_path
        if getattr(finder, '__module__', '').partition('.')[0] not in BLOCKED_PACKAGES
    ]
    gc.collect()


def _empty_environment():
    # Emscripten's defaults (USER, LOGNAME, PATH, PWD, LANG and `_`, the host
    # script's path) are left out when the interpreter starts; this drops what
    # Pyodide sets for itself (PYTHONINSPECT, LD_LIBRARY_PATH). HOME is scratch.
    os.environ.clear()
    os.environ['HOME'] = SCRATCH_DIR


_set_recursion_limit = sys.setrecursionlimit


def _capped_recursion_limit(limit):
    _set_recursion_limit(min(limit, MAX_RECURSION_LIMIT))


sys.dont_write_bytecode = True
_set_recursion_limit(RECURSION_LIMIT)
sys.setrecursionlimit = _capped_recursion_limit
_close_process_spawning()
_close_js_bridge()
_empty_environment()
# Every interpreter starts from the same memory snapshot, `random` already
# imported: without a new seed, every run would draw the same numbers.
random.seed()
os.chdir(SCRATCH_DIR)

_dumps = json.dumps
# The C getter behind `cls.__name__`: a learner metaclass cannot intercept it.
_type_name = type.__dict__['__name__'].__get__


def _plain(value, depth=0):
    """Copy a return value into plain JSON data.

    Exact types only, read without calling any of their methods: a subclass
    could lie to json, and learner code must not run under this frame.
    """
    if depth > MAX_RESULT_DEPTH:
        raise ValueError('return value is nested too deeply')
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        if value != value or value in (float('inf'), float('-inf')):
            raise ValueError(f'return value {value!r} is not valid JSON')
        return value
    if kind is list or kind is tuple:
        return [_plain(item, depth + 1) for item in value]
    if kind is dict:
        plain = {}
        for key, item in value.items():
            if type(key) is not str:
                raise ValueError(f'return value has a dict key of type {_type_name(type(key))}, not str')
            plain[key] = _plain(item, depth + 1)
        return plain
    raise ValueError(f'return value of type {_type_name(kind)} is not JSON data')


def json_of_result(results):
    """The JSON text of results[0], what the learner's function returned.

    Called by the worker after the call has returned, from JavaScript.
    """
    return _dumps(_plain(results[0]), ensure_ascii=False, allow_nan=False)
