/**
 * Records and helpers the storage contract builds its cases from. Test support: imported by
 * *.contract.ts files only, never by production code.
 */
import type { StudyPlanContent } from '@tutorloop/shared';
import type { GeneratedItem } from '../../src/core/assessment/item-builder';
import type { NewAgentLog } from '../../src/core/storage/agent-logs';
import type { StoredItem, StoredResponse } from '../../src/core/storage/assessments';
import type { NewLearner } from '../../src/core/storage/learners';
import type { NewMessage } from '../../src/core/storage/messages';
import type { NewPendingAction } from '../../src/core/storage/pending-actions';
import type { RecallPointRecord } from '../../src/core/storage/recall-sets';
import { initialRecallState } from '../../src/core/recall/recall-state';
import type { NewSession } from '../../src/core/storage/sessions';
import type { Storage } from '../../src/core/storage/storage';

/** A fixed instant: 2026-01-05 09:00 UTC plus `minutes`. */
export function at(minutes: number): Date {
  return new Date(Date.UTC(2026, 0, 5, 9, 0) + minutes * 60_000);
}

export function newLearner(id: string, username = `user-${id}`): NewLearner {
  return { id, username, passwordHash: `hash-${id}`, createdAt: at(0) };
}

export function point(id: string, recallSetId: string, position: number, content = `content of ${id}`): RecallPointRecord {
  return { id, recallSetId, content, context: position % 2 === 0 ? null : `context of ${id}`, position, createdAt: at(1) };
}

export function recallSession(id: string, learnerId: string, recallSetId: string | null, minute = 2): NewSession {
  return { id, learnerId, title: `Session ${id}`, recallSetId, typeState: initialRecallState(false), createdAt: at(minute) };
}

export function assessmentSession(id: string, learnerId: string, minute = 2): NewSession {
  return {
    id,
    learnerId,
    title: `Assessment ${id}`,
    recallSetId: null,
    typeState: { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1', seed: `seed-${id}`, timeLimitSeconds: 1800 },
    createdAt: at(minute),
  };
}

export function learnerMessage(sessionId: string, id: string, clientMessageId: string | null = null, minute = 3): NewMessage {
  return { id, sessionId, role: 'learner', content: `learner says ${id}`, toolCall: null, toolCallId: null, widgetAnswer: null, clientMessageId, createdAt: at(minute) };
}

export function tutorMessage(sessionId: string, id: string, minute = 4): NewMessage {
  return { id, sessionId, role: 'tutor', content: `tutor says ${id}`, toolCall: null, toolCallId: null, widgetAnswer: null, clientMessageId: null, createdAt: at(minute) };
}

export function choiceAction(sessionId: string, id: string, minute = 4): NewPendingAction {
  return { id, sessionId, toolCallId: `call-${id}`, kind: 'multiple_choice', props: { prompt: 'Which one?', options: ['A', 'B'] }, createdAt: at(minute) };
}

export function generatedItem(fingerprint: string, overrides: Partial<GeneratedItem> = {}): GeneratedItem {
  return {
    skillId: 'add-2digit',
    domain: 'arithmetic',
    sectionId: 'addition',
    kind: 'multiple_choice',
    stem: `What is ${fingerprint}?`,
    options: ['12', '13', '14', '15'],
    correctIndex: 2,
    correctAnswer: '14',
    difficulty: -0.5,
    level: 'easy',
    params: { a: 7, b: 7, case: 'single_carry' },
    fingerprint,
    ...overrides,
  };
}

export function storedItem(sessionId: string, id: string, position: number, fingerprint = `fp-${id}`, item = generatedItem(fingerprint)): StoredItem {
  return { id, sessionId, position, item, widgetId: `widget-${id}`, presentedAt: at(10 + position) };
}

export function storedResponse(itemId: string, minute: number, credit = 1): StoredResponse {
  return { itemId, answerText: '14', credit, testsPassed: null, testsTotal: null, note: null, responseSeconds: 12.5, answeredAt: at(minute) };
}

/** What `seedRecall` created. */
export interface RecallSeed {
  learnerId: string;
  setId: string;
  pointIds: string[];
  sessionId: string;
}

/** A learner with a recall set of three points and a recall session whose checklist holds them, committed. */
export async function seedRecall(storage: Storage, prefix = 'a'): Promise<RecallSeed> {
  const seed: RecallSeed = {
    learnerId: `${prefix}-learner`,
    setId: `${prefix}-set`,
    pointIds: [`${prefix}-p0`, `${prefix}-p1`, `${prefix}-p2`],
    sessionId: `${prefix}-session`,
  };
  await storage.transaction(async (tx) => {
    const created = await tx.learners.create(newLearner(seed.learnerId));
    if (!created.ok) throw new Error('seed learner not created');
    await tx.recallSets.create({ id: seed.setId, learnerId: seed.learnerId, name: 'Photosynthesis', description: null, createdAt: at(1) });
    for (const [position, id] of seed.pointIds.entries()) await tx.recallSets.addPoint(point(id, seed.setId, position));
    await tx.sessions.create(recallSession(seed.sessionId, seed.learnerId, seed.setId));
    await tx.checklists.add(seed.sessionId, seed.pointIds);
  });
  return seed;
}

/** A promise the test opens by hand, to hold a unit of work open at a chosen point. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Lets whatever could run concurrently run (timers included), before the test goes on. */
export function settle(milliseconds = 25): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** The error a promise rejected with (fails the test if it resolved). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A small valid study plan (SPEC §4.4): one step of each type. */
export function studyPlanContent(title = 'Place value'): StudyPlanContent {
  return {
    title,
    topic: 'Arithmetic',
    audience: 'Grade 2',
    objectives: ['Add two-digit numbers with carrying'],
    prerequisites: ['Counting to 100'],
    misconceptions: [{ concept: 'carrying', description: 'Writes 12 in the ones column instead of carrying the ten' }],
    teachingApproach: 'Concrete first: tens rods and ones cubes, then the written column method.',
    allowExtension: false,
    allowBacktrack: true,
    steps: [
      { number: 1, type: 'explain', concept: 'place value', contentHint: 'A two-digit number is tens and ones: 47 is 4 tens and 7 ones.' },
      {
        number: 2,
        type: 'check',
        concept: 'place value',
        contentHint: 'Ask for the tens digit.',
        questions: [{ question: 'How many tens are in 47?', expectedAnswer: '4', acceptedAnswers: ['four'] }],
      },
      { number: 3, type: 'practice', concept: 'carrying', contentHint: 'A fresh sum with a carry.', skillBlueprintId: 'MATH.ARITH.ADD.2DIGIT', items: 2 },
    ],
  };
}

/** An agent log entry to append (SPEC §4.4 "Agent logs"). */
export function agentLog(id: string, sessionId: string, learnerId: string, turn: number, overrides: Partial<NewAgentLog> = {}): NewAgentLog {
  return {
    id,
    sessionId,
    learnerId,
    turn,
    agent: 'master_tutor',
    inputSummary: `turn ${turn}: learner answered`,
    output: { response: 'Right: 4 tens.', answer_correct: true, mastery_updates: [{ concept: 'place value', score: 0.7 }], reasoning: 'said four' },
    latencyMs: 812,
    tokensIn: 1500,
    tokensOut: 120,
    outcome: 'ok',
    createdAt: at(10 + turn),
    ...overrides,
  };
}
