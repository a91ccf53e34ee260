/** Dynamic signals at their boundaries (SPEC §4.4 "Dynamic signals", seed 002 thresholds). */
import { describe, expect, it } from 'vitest';
import type { LearningTimelineEntry } from './learning-state';
import { learnerStyle, pacingDirective, type PacingInput } from './signals';

const entry = (correct: boolean | null, meanMastery = 0.5, turn = 1): LearningTimelineEntry => ({ turn, step: 1, intent: 'answer', correct, summary: '', meanMastery });
const pacing = (input: Partial<PacingInput>) => pacingDirective({ turn: 5, meanMastery: 0.5, anyEvidence: true, timeline: [], planComplete: false, ...input });

describe('pacing directive (SPEC §4.4)', () => {
  it('opens with turn_1 on the first turn, whatever else holds', () => {
    expect(pacing({ turn: 1, meanMastery: 0.1 })).toBe('turn_1');
    expect(pacing({ turn: 2, meanMastery: 0.1 })).toBe('simplify');
  });

  it('simplifies below 0.4 mean mastery, not at 0.4', () => {
    expect(pacing({ meanMastery: 0.399 })).toBe('simplify');
    expect(pacing({ meanMastery: 0.4 })).toBe('steady');
  });

  it('does not simplify before there is any evidence', () => {
    expect(pacing({ meanMastery: 0, anyEvidence: false })).toBe('steady');
  });

  it('simplifies when the last two answers were wrong (struggling)', () => {
    expect(pacing({ meanMastery: 0.7, timeline: [entry(true), entry(false), entry(false)] })).toBe('simplify');
    expect(pacing({ meanMastery: 0.7, timeline: [entry(false), entry(true), entry(false)] })).toBe('steady');
  });

  it('consolidates between 0.4 and 0.65 with 2+ recent wrong answers', () => {
    const twoWrong = [entry(false), entry(true), entry(false), entry(true)];
    expect(pacing({ meanMastery: 0.4, timeline: twoWrong })).toBe('consolidate');
    expect(pacing({ meanMastery: 0.65, timeline: twoWrong })).toBe('consolidate');
    expect(pacing({ meanMastery: 0.66, timeline: twoWrong })).toBe('steady');
    expect(pacing({ meanMastery: 0.5, timeline: [entry(false), entry(true), entry(true)] })).toBe('steady');
  });

  it('accelerates at 0.8 when improving, not at 0.79 nor when flat', () => {
    const rising = [entry(true, 0.5), entry(true, 0.6), entry(true, 0.7)];
    expect(pacing({ meanMastery: 0.8, timeline: rising })).toBe('accelerate');
    expect(pacing({ meanMastery: 0.79, timeline: rising })).toBe('steady');
    expect(pacing({ meanMastery: 0.8, timeline: [entry(true, 0.9), entry(true, 0.9), entry(true, 0.9)] })).toBe('steady');
  });

  it('extends once the plan is done and aced', () => {
    expect(pacing({ planComplete: true, meanMastery: 0.8 })).toBe('extend');
    expect(pacing({ planComplete: true, meanMastery: 0.79 })).not.toBe('extend');
  });
});

describe('learner style (SPEC §4.4)', () => {
  it('is quiet at 5 words a message or fewer, moderate above', () => {
    expect(learnerStyle(['one two three four five']).level).toBe('quiet');
    expect(learnerStyle(['one two three four five six']).level).toBe('moderate');
  });

  it('is expressive above 25 words a message', () => {
    expect(learnerStyle([Array(26).fill('word').join(' ')]).level).toBe('expressive');
    expect(learnerStyle([Array(25).fill('word').join(' ')]).level).toBe('moderate');
  });

  it('sets shorter replies for a quiet learner than for an expressive one', () => {
    expect(learnerStyle(['ok']).replyLength).toBe('2–3 sentences');
    expect(learnerStyle([Array(30).fill('word').join(' ')]).replyLength).toMatch(/elaborate/);
  });

  it('sees disengagement when messages get shorter over 4 messages, not over 3', () => {
    expect(learnerStyle(['a b c d e f g h', 'a b c d e f', 'a b c d', 'a b']).disengaged).toBe(true);
    expect(learnerStyle(['a b c d e f', 'a b c d', 'a b']).disengaged).toBe(false);
    expect(learnerStyle(['a b c d e f g h', 'a b c d e f', 'a b c d e f', 'a b']).disengaged).toBe(false);
  });
});
