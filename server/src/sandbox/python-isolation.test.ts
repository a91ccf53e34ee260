import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type CodeTest, type RunResult, type Sandbox } from './index';

// SPEC §8: each run starts from a clean state. Regression tests for an outside
// attack on the Python sandbox, each named after what the attacker did. The old
// harness kept one interpreter for everyone and restored it in place after each
// run; now every run gets a fresh interpreter. One worker thread here, so that
// the attacker's and the victim's runs go through the same thread, one after
// the other, as they did in the attack.

const SLOW = { timeout: 120_000 };
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = createSandbox({ timeoutMs: 1500, pythonWorkers: 1 });
  await sandbox.warm();
}, 120_000);
afterAll(() => sandbox.close());

const COUNT_CHARS_TESTS: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
  { args: ['tutorloop'], expected: 9 },
  { args: ['a b c'], expected: 5 },
  { args: ['ñandú 🦤'], expected: 7 },
  { args: ['x'.repeat(300)], expected: 300 },
];
const runPython = (code: string, tests: CodeTest[] = [{ args: [], expected: null }], functionName = 'attempt'): Promise<RunResult> =>
  sandbox.run({ language: 'python', code, functionName, tests });

/** The victim: a correct count_chars, marked so an attacker can look for its source. */
const VICTIM = 'def count_chars(text):\n    # victim-source-marker-7f3a\n    return len(text)\n';

async function expectVictimScoresFullMarks(): Promise<void> {
  const result = await runPython(VICTIM, COUNT_CHARS_TESTS, 'count_chars');
  expect(result).toMatchObject({ passed: 7, total: 7 });
  expect(result.error).toBeUndefined();
}

describe('attack: sys._getframe(1).f_globals reaches the harness', () => {
  it('finds no sandbox frame above learner code, at load or in a call', async () => {
    const code = `
import sys
def stack():
    frame, files = sys._getframe(1), []
    while frame is not None:
        files.append(frame.f_code.co_filename)
        frame = frame.f_back
    return files
at_load = stack()
def attempt():
    return [at_load, stack()]
`;
    const result = await runPython(code);
    // Only the submission's own frame: the caller above it is C code, driven from JavaScript.
    expect(result.outcomes).toEqual([{ passed: false, actual: [['<submission>'], ['<submission>']] }]);
  });

  it('replacing compile, _dumps, _plain or any harness name reached through gc has no effect on the next run', async () => {
    // What the attacker did through f_globals, done through gc.get_objects(), which reaches everything.
    const attack = `
import builtins, gc
tampered = []
for holder in gc.get_objects():
    if isinstance(holder, dict) and 'json_of_result' in holder:
        for name in ('_dumps', '_plain', '_type_name', 'json_of_result'):
            holder[name] = lambda *args, **kwargs: '"tampered"'
            tampered.append(name)
builtins.compile = lambda *args, **kwargs: compile('def count_chars(text):\\n    return 0\\n', 'x', 'exec')
builtins.exec = lambda *args, **kwargs: None
def attempt():
    return tampered
`;
    const attacked = await runPython(attack);
    // The attacker did reach the harness of its own interpreter, and could report what it liked
    // as its own return value (it could anyway: the verdict is on the host)...
    expect(attacked.outcomes).toEqual([{ passed: false, actual: 'tampered' }]);
    // ...but that interpreter is gone: the next learner's correct code scores full marks, twice.
    await expectVictimScoresFullMarks();
    await expectVictimScoresFullMarks();
  });

  it('a replaced compile reveals no other learner’s source', async () => {
    const spy = `
import builtins, sys
try:
    # The route the attacker took: the harness's globals, one frame up.
    harness_globals = sys._getframe(1).f_globals
except ValueError:
    harness_globals = {}
stolen = harness_globals.get('stolen_sources') or getattr(builtins, 'stolen_sources', None) or getattr(sys, 'stolen_sources', None)
if stolen is None:
    stolen = []
    harness_globals['stolen_sources'] = builtins.stolen_sources = sys.stolen_sources = stolen
    real_compile = builtins.compile
    def spying_compile(source, *args, **kwargs):
        stolen.append(source if isinstance(source, str) else repr(source))
        return real_compile(source, *args, **kwargs)
    harness_globals['compile'] = builtins.compile = spying_compile
def attempt():
    import gc
    # Joined at run time: a constant would put the marker in this code's own co_consts.
    marker = '-'.join(['victim-source', 'marker', '7f3a'])
    seen = [text for text in stolen if marker in text]
    for holder in gc.get_objects():
        values = holder.values() if isinstance(holder, dict) else holder if isinstance(holder, (list, tuple)) else ()
        seen += [value for value in values if isinstance(value, str) and marker in value]
    return seen
`;
    const first = await runPython(spy);
    await expectVictimScoresFullMarks();
    const second = await runPython(spy);
    expect([first.outcomes, second.outcomes]).toEqual([[{ passed: false, actual: [] }], [{ passed: false, actual: [] }]]);
  });
});

describe('attack: attributes set on builtins, sys, stdlib modules and classes persist', () => {
  it('leaves nothing set or changed in place for the next run', async () => {
    const attack = `
import builtins, collections, gc, json, os, sys
builtins.len = lambda value: 42
builtins.leftover = sys.leftover = json.leftover = 'from the attacker'
json.dumps.__code__ = (lambda *args, **kwargs: '"tampered"').__code__
json.JSONEncoder.leftover = collections.Counter.leftover = 'from the attacker'
sys.modules['leftover_module'] = json
os.environ['LEFTOVER'] = 'from the attacker'
with open('/tmp/leftover.txt', 'w') as file:
    file.write('from the attacker')
leftover_global = 1
def attempt():
    return 0
`;
    await runPython(attack);
    const probe = `
import builtins, collections, json, os, sys
def attempt():
    return [
        len('abc'),
        [hasattr(holder, 'leftover') for holder in (builtins, sys, json, json.JSONEncoder, collections.Counter)],
        json.dumps([1, 2]),
        'leftover_module' in sys.modules,
        'leftover_global' in globals(),
        os.environ.get('LEFTOVER'),
        os.listdir('/tmp'),
    ]
`;
    const expected = [3, [false, false, false, false, false], '[1, 2]', false, false, null, []];
    const result = await runPython(probe, [{ args: [], expected }]);
    expect(result.outcomes).toEqual([{ passed: true, actual: expected }]);
    await expectVictimScoresFullMarks();
  });

  it('code and class attributes of the standard library changed in place through gc.get_objects() do not reach the next run', async () => {
    // In-place changes that no restoring of module dicts can undo: json.dumps itself now lies.
    const attack = `
import gc, types
for holder in gc.get_objects():
    if isinstance(holder, types.FunctionType) and holder.__module__ in ('json', 'json.encoder') and holder.__name__ != 'loads':
        try:
            holder.__code__ = (lambda *args, **kwargs: '"tampered"').__code__
        except ValueError:
            pass
    if isinstance(holder, type) and holder.__module__ in ('json.encoder', 'json.decoder', 'collections'):
        try:
            holder.leftover = 'from the attacker'
        except TypeError:
            pass
def attempt():
    import json
    return json.dumps([1, 2])
`;
    expect((await runPython(attack)).outcomes).toEqual([{ passed: false, actual: 'tampered' }]);
    const probe = 'import json, collections\ndef attempt():\n    return [json.dumps([1, 2]), hasattr(json.JSONEncoder, "leftover"), hasattr(collections.Counter, "leftover")]\n';
    expect((await runPython(probe)).outcomes).toEqual([{ passed: false, actual: ['[1, 2]', false, false] }]);
    await expectVictimScoresFullMarks();
  });
});

describe('attack: a loop that swallows KeyboardInterrupt, then tampers', () => {
  it('cannot affect the next learner when it returns after tampering', SLOW, async () => {
    const attack = `
import builtins, json
def attempt():
    try:
        while True:
            pass
    except KeyboardInterrupt:
        json.dumps.__code__ = (lambda *args, **kwargs: '"tampered"').__code__
        builtins.len = lambda value: 0
    return 1
`;
    const attacked = await runPython(attack);
    expect(attacked.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    await expectVictimScoresFullMarks();
  });

  it('cannot affect the next learner when it keeps looping until its thread is terminated', SLOW, async () => {
    const attack = `
import builtins
def attempt():
    while True:
        try:
            while True:
                pass
        except BaseException:
            builtins.len = lambda value: 0
`;
    const attacked = await runPython(attack);
    expect(attacked.error).toEqual({ kind: 'timeout', message: 'time limit exceeded' });
    await expectVictimScoresFullMarks();
  });
});
