# The Python half of the sandbox, run once when a Python worker boots
# (python-worker.mjs). It closes the JS bridge, blocks dangerous modules and
# process spawning at the Python level, and exposes three entry points the
# worker calls for every run: load_submission, call_test and reset_state.
#
# Python-level blocks are one layer only: Python cannot sandbox itself against
# introspection tricks. The real guards sit below, in JavaScript (see
# host-lockdown.mjs and pyodide-file-system.mjs): no child processes, no sockets,
# no writes outside /tmp, a capped heap and no route from a JS object back to
# the host's globals.
#
# Expected values never enter the sandbox: this file only reports what the
# learner's function returned, as JSON text; the host compares. So tampering
# with this harness cannot turn a wrong answer into a right one.

import builtins
import gc
import json
import os
import signal
import sys
import traceback

SCRATCH_DIR = '/tmp'
MAX_RESULT_CHARS = 65_536
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
    # would stop Emscripten's runtime under the harness's feet.
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


_set_recursion_limit = sys.setrecursionlimit


def _capped_recursion_limit(limit):
    _set_recursion_limit(min(limit, MAX_RECURSION_LIMIT))


sys.dont_write_bytecode = True
sys.setrecursionlimit = _capped_recursion_limit
_close_process_spawning()
_close_js_bridge()
os.chdir(SCRATCH_DIR)

# The state every run starts from. Learner code may rebind module attributes,
# builtins or sys hooks; reset_state puts them back so one submission cannot
# change how the next one behaves.
_PRISTINE_PATH = [entry for entry in sys.path if entry not in ('', '/home/pyodide')]
_PRISTINE_META_PATH = list(sys.meta_path)
_PRISTINE_PATH_HOOKS = list(sys.path_hooks)
_PRISTINE_MODULES = dict(sys.modules)
_PRISTINE_MODULE_DICTS = {name: dict(vars(module)) for name, module in _PRISTINE_MODULES.items()}
_PRISTINE_ENVIRON = dict(os.environ)
_PRISTINE_INT_DIGITS = sys.get_int_max_str_digits()
_dumps = json.dumps
_loads = json.loads


def _restore_dict(target, pristine):
    for key in [key for key in target if key not in pristine]:
        del target[key]
    for key, value in pristine.items():
        if target.get(key, _restore_dict) is not value:
            target[key] = value


def reset_state():
    """Put the interpreter back to its post-boot state. Called after every run."""
    sys.settrace(None)
    sys.setprofile(None)
    _set_recursion_limit(RECURSION_LIMIT)
    sys.set_int_max_str_digits(_PRISTINE_INT_DIGITS)
    for name in [name for name in sys.modules if name not in _PRISTINE_MODULES]:
        del sys.modules[name]
    _restore_dict(sys.modules, _PRISTINE_MODULES)
    for name, module in _PRISTINE_MODULES.items():
        _restore_dict(vars(module), _PRISTINE_MODULE_DICTS[name])
    sys.path[:] = _PRISTINE_PATH
    sys.meta_path[:] = _PRISTINE_META_PATH
    sys.path_hooks[:] = _PRISTINE_PATH_HOOKS
    sys.path_importer_cache.clear()
    if os.environ != _PRISTINE_ENVIRON:
        os.environ.clear()
        os.environ.update(_PRISTINE_ENVIRON)
    # The time limit raises KeyboardInterrupt through SIGINT: keep it deliverable.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    gc.enable()
    os.chdir(SCRATCH_DIR)
    # The previous submission's namespace is a cycle (functions point back at
    # their globals); the automatic collector frees it, an explicit collect here
    # would cost ~10 ms per run.
    _state['function'] = None


_state = {'function': None}


def _submission_line(error):
    lines = [line for frame, line in traceback.walk_tb(error.__traceback__)
             if frame.f_code.co_filename == '<submission>']
    return lines[-1] if lines else None


def _text_of(error):
    # A learner's exception class may define a __str__ that raises.
    try:
        return str(error)
    except Exception:
        return '<unprintable>'


def _is_size_overflow(text):
    return 'index-sized integer' in text or text.startswith('repeated')


def _describe(error):
    """An exception as {kind, message}: the kind the host reports, the message the learner reads."""
    if isinstance(error, KeyboardInterrupt):
        return {'kind': 'timeout', 'message': 'time limit exceeded'}
    if isinstance(error, MemoryError):
        return {'kind': 'memory', 'message': 'MemoryError: memory limit exceeded'}
    detail = _text_of(error)
    if isinstance(error, OverflowError) and _is_size_overflow(detail):
        # On 32-bit WebAssembly `'x' * 10**10` cannot even be attempted: it is a memory bomb.
        return {'kind': 'memory', 'message': f'MemoryError: memory limit exceeded (OverflowError: {detail})'}
    kind = 'forbidden' if isinstance(error, (PermissionError, ForbiddenImportError)) else 'runtime'
    message = f'{type(error).__name__}: {detail}' if detail else type(error).__name__
    line = _submission_line(error)
    if line is not None:
        message += f' (line {line})'
    return {'kind': kind, 'message': message}


def _plain(value, depth=0):
    """Copy a return value into plain JSON data. Exact types only: a subclass could lie to json."""
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
                raise ValueError(f'return value has a non-string dict key: {key!r}')
            plain[key] = _plain(item, depth + 1)
        return plain
    raise ValueError(f'return value of type {kind.__name__} is not JSON data')


def load_submission(code, function_name):
    """Compile and run the learner's module in a fresh namespace; find the function under test."""
    namespace = {'__name__': '__main__', '__builtins__': builtins}
    try:
        compiled = compile(code, '<submission>', 'exec', dont_inherit=True)
    except SyntaxError as error:
        return _dumps({'ok': False, 'kind': 'syntax',
                       'message': f'{type(error).__name__}: {error.msg} (line {error.lineno})'})
    try:
        exec(compiled, namespace)
    except BaseException as error:
        return _dumps({'ok': False, **_describe(error)})
    function = namespace.get(function_name)
    if not callable(function):
        return _dumps({'ok': False, 'kind': 'missing_function',
                       'message': f"define a function named '{function_name}'"})
    _state['function'] = function
    return _dumps({'ok': True})


def call_test(args_json):
    """Call the learner's function with JSON-decoded args; report its return value as JSON text."""
    try:
        value = _state['function'](*_loads(args_json))
        actual = _dumps(_plain(value), ensure_ascii=False, allow_nan=False)
    except BaseException as error:
        return _dumps({'ok': False, **_describe(error)})
    if len(actual) > MAX_RESULT_CHARS:
        return _dumps({'ok': False, 'kind': 'runtime',
                       'message': f'return value is too large (over {MAX_RESULT_CHARS} characters of JSON)'})
    return '{"ok":true,"actualJson":' + _dumps(actual) + '}'
