/**
 * The fuzzer's frame generator (SPEC §8): reproducible by seed, covers every kind, and its
 * predictions agree with the shared parser the server runs at its edge.
 */
import { describe, expect, it } from 'vitest';
import { Limits, parseClientMessage } from '@tutorloop/shared';
import {
  FrameKinds,
  SeededRandom,
  edgeError,
  frameKinds,
  generateSteps,
  markersIn,
  mulberry32,
  nestingDepth,
  socketActions,
  type FrameGeneratorOptions,
  type FrameStep,
  type FuzzStep,
} from './frame-generator';

const options: FrameGeneratorOptions = { seed: 20240611, learners: 3, mainSessions: 2, socketsPerSession: 3, maxFrameBytes: 65_536 };

/** A step as comparable data (bytes as hex). */
function fingerprint(step: FuzzStep): unknown {
  return step.step === 'frame' ? { ...step, data: step.data.toString('hex') } : step;
}

function frames(steps: FuzzStep[]): FrameStep[] {
  return steps.filter((step): step is FrameStep => step.step === 'frame');
}

describe('seeded randomness', () => {
  it('mulberry32 gives the same sequence for the same seed and another one for another seed', () => {
    const first = mulberry32(42);
    const again = mulberry32(42);
    const other = mulberry32(43);
    const a = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => again())).toEqual(a);
    expect(Array.from({ length: 5 }, () => other())).not.toEqual(a);
    for (const value of a) expect(value >= 0 && value < 1).toBe(true);
  });

  it('draws integers inside their bounds, both ends reachable', () => {
    const random = new SeededRandom(7);
    const seen = new Set<number>();
    for (let index = 0; index < 2000; index += 1) seen.add(random.int(3, 6));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });
});

describe('generateSteps', () => {
  it('is reproducible by seed, byte for byte, and another seed gives other frames', () => {
    const first = [...generateSteps(options, 400)].map(fingerprint);
    const again = [...generateSteps(options, 400)].map(fingerprint);
    const other = [...generateSteps({ ...options, seed: options.seed + 1 }, 400)].map(fingerprint);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('covers every frame kind and every socket action in 3,000 steps', () => {
    const steps = [...generateSteps(options, 3000)];
    const kinds = new Map<string, number>();
    for (const step of frames(steps)) kinds.set(step.kind, (kinds.get(step.kind) ?? 0) + 1);
    for (const kind of frameKinds) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(10);
    const actions = new Set(steps.flatMap((step) => (step.step === 'socket' ? [step.action] : [])));
    expect([...actions].sort()).toEqual([...socketActions].sort());
  });

  it('covers the shapes the issue names: deep nesting to tens of thousands of levels, frames near and over the limit, invalid UTF-8, lone surrogates, prototype keys, binary', () => {
    const all = frames([...generateSteps(options, 3000)]);
    const depths = all.filter((step) => step.kind === FrameKinds.deepNesting && !step.binary).map((step) => nestingDepth(step.data.toString('latin1')));
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(20_000);
    const sizes = all.map((step) => step.data.length);
    expect(sizes).toContain(options.maxFrameBytes);
    expect(sizes.some((size) => size > options.maxFrameBytes)).toBe(true);
    const strict = new TextDecoder('utf-8', { fatal: true });
    const isUtf8 = (bytes: Buffer) => {
      try {
        strict.decode(bytes);
        return true;
      } catch {
        return false;
      }
    };
    expect(all.filter((step) => step.kind === FrameKinds.invalidUtf8 && !step.binary && !isUtf8(step.data)).length).toBeGreaterThan(20);
    expect(all.some((step) => step.data.includes(Buffer.from('\\ud800')))).toBe(true);
    for (const key of ['__proto__', 'constructor', 'prototype']) expect(all.some((step) => step.data.includes(Buffer.from(`"${key}"`)))).toBe(true);
    expect(all.some((step) => step.binary)).toBe(true);
    expect(all.some((step) => step.chat !== null && step.chat.content.length === Limits.chatMessageMaxLength)).toBe(true);
  });

  it('predicts what the server edge answers: the error code of every bad frame, and the exact stored text of every chat', () => {
    const all = frames([...generateSteps(options, 3000)]);
    let checked = 0;
    for (const step of all) {
      if (step.expect.outcome === 'runtime') continue;
      const label = `#${step.index} ${step.kind} ${step.variant}`;
      const edge = edgeError(step.data, step.binary, options.maxFrameBytes);
      if (step.binary || step.data.length > options.maxFrameBytes) {
        expect(step.expect, label).toEqual({ outcome: 'error', codes: [edge] });
        continue;
      }
      // The server decodes with Buffer#toString (U+FFFD for invalid UTF-8) and parses with the shared parser.
      const parsed = parseClientMessage(step.data.toString('utf8'));
      checked += 1;
      if (!parsed.ok) {
        expect(step.expect.outcome, label).toBe('error');
        if (step.expect.outcome === 'error') {
          expect(step.expect.codes, `${label}: got ${parsed.error.code}`).toContain(parsed.error.code);
          // "May reach the session" only where the schema itself is not pinned (the rating answer of SPEC §5).
          if (step.reachesRoom) expect(step.expect.codes.length, label).toBe(2);
        }
        continue;
      }
      expect(step.reachesRoom, label).toBe(true);
      if (step.expect.outcome === 'error') {
        // Only the session can refuse a valid message: not pending, or ended.
        for (const code of step.expect.codes) expect(['widget_not_pending', 'session_ended', 'invalid_payload'], label).toContain(code);
        expect(step.expect.codes.some((code) => code === 'widget_not_pending' || code === 'session_ended'), label).toBe(true);
      }
      if (step.chat) {
        expect(parsed.value.type, label).toBe('chat');
        if (parsed.value.type === 'chat') {
          expect(parsed.value.payload.message, label).toBe(step.chat.content);
          expect(parsed.value.payload.clientMessageId ?? null, label).toBe(step.chat.clientMessageId);
        }
      } else if (parsed.value.type === 'chat' && step.resendOf === null) {
        throw new Error(`${label}: a valid chat without an expected text`);
      }
      // A text that must never be stored is never what a valid chat carries (except a resend, which the clientMessageId dedupes).
      if (parsed.value.type === 'chat' && step.resendOf === null) {
        for (const marker of step.forbiddenMarkers) expect(markersIn(parsed.value.payload.message), label).not.toContain(marker);
      }
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it('sends chats and widget answers only to main sessions, and session ends only to throwaway ones', () => {
    for (const step of frames([...generateSteps(options, 3000)])) {
      if (step.chat || step.widgetAnswer || step.resendOf !== null) expect(step.target.session).not.toBe('throwaway');
      if (step.endsSession) expect(step.target.session).toBe('throwaway');
    }
  });

  it('refuses every operation on a throwaway session it ended, until a new one', () => {
    const ended = new Set<number>();
    for (const step of [...generateSteps(options, 3000)]) {
      if (step.step === 'socket') {
        if (step.action === 'new_throwaway') ended.delete(step.target.learner);
        continue;
      }
      if (step.target.session !== 'throwaway' || !step.reachesRoom) continue;
      if (ended.has(step.target.learner)) expect(step.expect.outcome === 'error' && step.expect.codes.at(-1)).toBe('session_ended');
      if (step.endsSession) ended.add(step.target.learner);
    }
  });
});
