import { describe, expect, it } from 'vitest';
import { gist, offlineThoughtReply, offlineThoughtSummary, rollingSummaryMaxChars } from './offline-thought-partner';

const input = (content: string, extra: Partial<Parameters<typeof offlineThoughtReply>[0]> = {}) => ({ sessionId: 's1', topic: 'habits', summary: '', recentMessages: [{ role: 'learner' as const, content }], ...extra });

describe('the offline thought partner (SPEC §4.5)', () => {
  it('reflects the learner’s idea back and asks one question, the same way every time', () => {
    expect(gist('I think that habits stick because they run on cues. And more.')).toBe('habits stick because they run on cues');
    const reply = offlineThoughtReply(input('I think habits stick because they run on cues'));
    expect(reply).toContain('“habits stick because they run on cues”');
    expect(reply.trim().endsWith('?')).toBe(true);
    expect(offlineThoughtReply(input('I think habits stick because they run on cues', { sessionId: 'other' }))).toBe(reply);
  });

  it('turns a question back to the learner instead of answering it', () => {
    expect(offlineThoughtReply(input('Why do habits fade?'))).toMatch(/^That’s a good question to sit with: “Why do habits fade”\. Before I weigh in/);
  });

  it('keeps its rolling summary bounded by dropping the oldest segments', () => {
    let summary = '';
    for (let index = 0; index < 200; index += 1) {
      summary = offlineThoughtSummary({ sessionId: 's1', topic: 'habits', previousSummary: summary, messages: [{ role: 'learner', content: `idea number ${index} about cues and routines` }], final: false });
    }
    expect(summary.length).toBeLessThanOrEqual(rollingSummaryMaxChars);
    expect(summary).toContain('idea number 199');
    expect(summary).not.toContain('idea number 0 ');
  });
});

describe('reads like a person wrote it (issues 25 and 28)', () => {
  it('opens on a question topic without bending its grammar', () => {
    const opening = offlineThoughtReply({ sessionId: 's1', topic: 'Should I learn Rust or Go next?', summary: '', recentMessages: [] });
    expect(opening).toContain('your question “Should I learn Rust or Go next?”');
    expect(opening).not.toMatch(/about Should/);
  });

  it('does not reflect "ok" back as an idea, and meets "I don’t know" with a smaller question', () => {
    expect(offlineThoughtReply(input('ok'))).toMatch(/^Take your time\./);
    expect(offlineThoughtReply(input('I don’t know'))).toMatch(/smaller/);
  });

  it('sums up the path the learner took and the words they kept coming back to', () => {
    const messages = [
      { role: 'learner' as const, content: 'Rust feels safer because of the borrow checker.' },
      { role: 'partner' as const, content: 'What makes you think so?' },
      { role: 'learner' as const, content: 'ok' },
      { role: 'learner' as const, content: 'Go is easier to pick up, but Rust teaches me more.' },
    ];
    const summary = offlineThoughtSummary({ sessionId: 's1', topic: 'Should I learn Rust or Go next?', previousSummary: '', messages, final: true });
    expect(summary).toBe(
      'You thought through your question “Should I learn Rust or Go next?”. You started from “Rust feels safer because of the borrow checker” and ended at “Go is easier to pick up, but Rust teaches me more”. You kept coming back to Rust. A good next step: take the idea you felt least sure about and test it against one real example.',
    );
  });
});
