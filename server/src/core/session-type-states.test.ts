import { describe, expect, it } from 'vitest';
import { initialLearningState } from './learning/learning-rules';
import { additionPlan } from './learning/test-fixtures';
import { initialRecallState } from './recall/recall-state';
import { sessionTypeCatalog } from './session-type-states';
import { parseTypeState as parseWith, readTypeState as readWith, typeStateOf } from './storage/session-type-state';
import { isStorageError } from './storage/storage-error';

// Storage validates with the registry's catalog; these run the same functions with it.
const parseTypeState = (value: unknown) => parseWith(sessionTypeCatalog, value);
const readTypeState = (sessionId: string, value: unknown) => readWith(sessionTypeCatalog, sessionId, value);

describe('session type states', () => {
  it('parses each type’s state and drops fields no type has', () => {
    expect(parseTypeState({ ...initialRecallState(true), stray: 1 })).toEqual({
      type: 'recall',
      mode: 'recall',
      rabbitholeTopic: null,
      probeIndex: 0,
      probeAttempts: 0,
      allPoints: true,
    });
    const learning = parseTypeState({ type: 'learning', studyPlanId: 'addition', plan: additionPlan });
    // A state stored before the first-try and explained counts existed has none (it reports only the total).
    const { questionsRightFirstTry: _firstTry, questionsExplained: _explained, ...initial } = initialLearningState('addition', additionPlan);
    expect(learning).toEqual(initial);
    expect(() => parseTypeState({ type: 'learning', studyPlanId: 'addition' })).toThrow(/plan/);
  });

  it('refuses an invalid state on the way in (invalid_value) and reports one on the way out (corrupt)', () => {
    const bad = { type: 'assessment', blueprintId: 'B', seed: 's', timeLimitSeconds: -1 };
    expect(() => parseTypeState(bad)).toThrow(expect.objectContaining({ code: 'invalid_value' }));
    expect(() => readTypeState('s1', bad)).toThrow(expect.objectContaining({ code: 'corrupt' }));
    expect(() => parseTypeState({ type: 'survey' })).toThrow(expect.objectContaining({ code: 'invalid_value' }));
  });

  it('narrows a session to the state of its type, and refuses another type', () => {
    const session = { id: 's1', typeState: initialRecallState(false) };
    expect(typeStateOf(session, 'recall').probeIndex).toBe(0);
    let error: unknown;
    try {
      typeStateOf(session, 'assessment');
    } catch (caught) {
      error = caught;
    }
    expect(isStorageError(error, 'invalid_value')).toBe(true);
  });
});
