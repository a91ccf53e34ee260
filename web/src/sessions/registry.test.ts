import { SessionType, type LearningSummary, type SessionDetail, type SessionState, type SessionSummary } from '@tutorloop/shared';
import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, selectCanStop, selectProgressLabel, selectRetryableMessageId } from '../store/session-store';
import { activeState, assessmentResults, events, sessionId, summary } from '../test-support/fixtures';
import { homeCards, sessionEntryParts, setActions } from './entry-parts';
import { sessionRegistry, sessionTypeFor } from './registry';
import { sessionRules, sessionRulesFor } from './rules';
import type { SessionLookupResult } from './session-type';

// The Markdown component builds its sanitiser from the browser's window when imported; the
// registry's assessment results use it, and nothing here renders.
vi.mock('../components/markdown', () => ({ Markdown: () => null }));

/** A state of a type a newer server might send (the shared list of this version does not have it). */
const unknownState = { ...activeState({ recalledCount: 1, totalPoints: 4 }), type: 'cloze_drill' } as unknown as SessionState;

const learningSummary: LearningSummary = {
  studyPlanId: 'ipv4-subnetting',
  planTitle: 'IPv4 subnetting',
  stepsCovered: 3,
  totalSteps: 3,
  steps: [],
  concepts: [],
  misconceptions: { met: 0, resolved: 0, concepts: [] },
  questions: { asked: 2, answeredRight: 2 },
  trend: 'steady',
};

function detailOf(recallSetId: string | null): SessionDetail {
  return {
    session: {
      id: sessionId,
      type: 'recall',
      status: 'completed',
      mode: 'recall',
      title: 'Photosynthesis',
      recallSetId,
      recalledCount: 3,
      totalPoints: 3,
      createdAt: '2025-01-01T11:00:00.000Z',
      endedAt: '2025-01-01T11:05:00.000Z',
    },
    state: { ...activeState(), status: 'completed', endedAt: '2025-01-01T11:05:00.000Z' },
  };
}

function startAgain(type: SessionType, ended: SessionSummary, lookup: SessionLookupResult = { ok: false, error: { message: 'not asked' } }) {
  const rule = sessionRules[type].startAgain;
  const getSession = vi.fn(async () => lookup);
  return { result: rule ? rule({ sessionId, summary: ended, getSession }) : null, getSession };
}

describe('session type registry', () => {
  it('has an entry, with its rules and its completion screen, for every session type of shared (and no other)', () => {
    expect(Object.keys(sessionRegistry).sort()).toEqual([...SessionType.options].sort());
    expect(Object.keys(sessionRules).sort()).toEqual([...SessionType.options].sort());
    for (const type of SessionType.options) {
      const definition = sessionTypeFor(type);
      expect(definition, type).not.toBeNull();
      expect(definition?.Completion, type).toBeTypeOf('function');
      // The registry's page parts and the store's rules describe the same type.
      expect(definition?.label, type).toBe(sessionRules[type].label);
      expect(sessionRules[type].label, type).not.toBe('');
      expect(sessionRules[type].endNote, type).not.toBe('');
    }
  });

  it('gives the home page recall’s due card then the cloze card, and the set page their start buttons, for every type of shared', () => {
    expect(Object.keys(sessionEntryParts).sort()).toEqual([...SessionType.options].sort());
    expect(homeCards.map(({ type }) => type)).toEqual(['recall', 'cloze']);
    expect(setActions.map(({ type }) => type)).toEqual(['recall', 'cloze']);
  });

  it('gives no entry for a type this version does not know, and never falls back to recall', () => {
    for (const type of ['cloze_drill', 'Recall', '', 'toString', '__proto__', null, undefined]) {
      expect(sessionTypeFor(type), String(type)).toBeNull();
      expect(sessionRulesFor(type), String(type)).toBeNull();
    }
  });

  it('shows no recall progress, Stop or Retry for a session of an unknown type', () => {
    const store = createSessionStore();
    store.getState().reset(sessionId);
    store.getState().handleConnectionChange('open', null);
    store.getState().handleServerEvent(events.state(unknownState));
    store.getState().handleServerEvent(events.assistant('m1', 'Fill in the blank.'));
    expect(selectProgressLabel(store.getState())).toBeNull();
    expect(selectRetryableMessageId(store.getState())).toBeNull();
    store.getState().handleServerEvent(events.typing());
    expect(selectCanStop(store.getState())).toBe(false);
  });

  it('words each type’s progress in the session bar', () => {
    const survey = { surveyId: 'sv1', question: 2, totalQuestions: 5, required: false, answered: 1, skipped: 0 };
    expect(sessionRules.recall.progressLabel(activeState({ recalledCount: 2, totalPoints: 5 }))).toBe('2 of 5 recalled');
    expect(sessionRules.survey.progressLabel(activeState({ type: 'survey', survey }))).toBe('Question 2 of 5');
    expect(sessionRules.survey.canSkip(activeState({ type: 'survey', survey }))).toBe(true);
    expect(sessionRules.survey.canSkip(activeState({ type: 'survey', survey: { ...survey, required: true } }))).toBe(false);
    for (const type of ['assessment', 'learning', 'thought'] as const) {
      expect(sessionRules[type].progressLabel(activeState({ type })), type).toBeNull();
    }
  });

  it('starts a recall session again on the same set, read from the session', async () => {
    const again = startAgain('recall', summary, { ok: true, value: detailOf('set_photosynthesis') });
    await expect(again.result).resolves.toEqual({ ok: true, value: { type: 'recall', recallSetId: 'set_photosynthesis' } });
    expect(again.getSession).toHaveBeenCalledWith(sessionId);
    await expect(startAgain('recall', summary, { ok: true, value: detailOf(null) }).result).resolves.toEqual({
      ok: false,
      error: 'This session has no recall set to review.',
    });
    await expect(startAgain('recall', summary, { ok: false, error: { message: 'The server is unavailable.' } }).result).resolves.toEqual({
      ok: false,
      error: 'The server is unavailable.',
    });
  });

  it('retakes the same assessment and starts the same study plan again; thoughts and surveys have no "start again"', async () => {
    const assessmentEnded: SessionSummary = { ...summary, type: 'assessment', assessment: assessmentResults };
    await expect(startAgain('assessment', assessmentEnded).result).resolves.toEqual({
      ok: true,
      value: { type: 'assessment', blueprintId: assessmentResults.blueprintId },
    });
    const learningEnded: SessionSummary = { ...summary, type: 'learning', reason: 'plan_completed', learning: learningSummary };
    await expect(startAgain('learning', learningEnded).result).resolves.toEqual({
      ok: true,
      value: { type: 'learning', studyPlanId: 'ipv4-subnetting' },
    });
    expect(sessionRules.thought.startAgain).toBeNull();
    expect(sessionRules.survey.startAgain).toBeNull();
  });

  it('keeps the tutor answering only after a completed study plan', () => {
    const learningEnded: SessionSummary = { ...summary, type: 'learning', reason: 'plan_completed', learning: learningSummary };
    expect(sessionRules.learning.followUpAfter(learningEnded)).toBe(true);
    expect(sessionRules.learning.followUpAfter({ ...learningEnded, reason: 'ended_by_learner' })).toBe(false);
    expect(sessionRules.recall.followUpAfter(summary)).toBe(false);
  });
});
