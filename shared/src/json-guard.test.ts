import { describe, expect, it } from 'vitest';
import { describeUnknownValue, jsonNestingDepth, parseClientJson, toWellFormed } from './json-guard';
import { parseClientMessage } from './ws';

describe('toWellFormed', () => {
  it('replaces lone surrogates only, keeping pairs and other text', () => {
    expect(toWellFormed('a\ud83db')).toBe('a\ufffdb');
    expect(toWellFormed('\udc00x\ud800')).toBe('\ufffdx\ufffd');
    expect(toWellFormed('ok 😀 naïve')).toBe('ok 😀 naïve');
    expect(toWellFormed('\ud83d\ud83d\ude00')).toBe('\ufffd😀');
  });
});

describe('jsonNestingDepth', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(jsonNestingDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonNestingDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonNestingDepth('{"a":"\\"[[["}')).toBe(1);
    expect(jsonNestingDepth('[[[', 2)).toBe(3);
  });

  it('scans 100,000 levels without recursion', () => {
    expect(jsonNestingDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });
});

describe('parseClientJson', () => {
  it('refuses nesting past the limit before parsing, parses up to it', () => {
    expect(parseClientJson('[[[]]]', 2)).toEqual({ ok: false, error: { reason: 'too_deep', message: 'JSON nests deeper than 2 levels.' } });
    expect(parseClientJson('[[]]', 2)).toEqual({ ok: true, value: [[]] });
    expect(parseClientJson('{bad', 2)).toEqual({ ok: false, error: { reason: 'invalid_json', message: 'Not valid JSON.' } });
  });

  it('returns every string well-formed, deep in the value too', () => {
    expect(parseClientJson('{"a":["x\\ud800",{"b":"\\udfff"}]}')).toEqual({ ok: true, value: { a: ['x\ufffd', { b: '\ufffd' }] } });
  });
});

describe('describeUnknownValue', () => {
  it('never echoes more than a short prefix, and never recurses', () => {
    expect(describeUnknownValue('x'.repeat(100))).toBe(`"${'x'.repeat(40)}…"`);
    expect(describeUnknownValue([[[]]])).toBe('an array');
    expect(describeUnknownValue({ a: 1 })).toBe('an object');
    expect(describeUnknownValue(undefined)).toBe('null');
    expect(describeUnknownValue(7)).toBe('7');
  });
});

describe('parseClientMessage at the edge', () => {
  it('answers the 6,000-deep `type` frame with an error instead of overflowing the stack', () => {
    const frame = `{"type":${'['.repeat(6000)}${']'.repeat(6000)},"payload":{}}`;
    expect(parseClientMessage(frame)).toEqual({ ok: false, error: { code: 'invalid_payload', message: 'Frame nests deeper than 16 levels.' } });
  });

  it('makes chat text well-formed', () => {
    expect(parseClientMessage('{"type":"chat","payload":{"message":"hi \\ud83d"}}')).toEqual({ ok: true, value: { type: 'chat', payload: { message: 'hi \ufffd' } } });
  });
});
