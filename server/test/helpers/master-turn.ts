/**
 * A master-tutor answer (seed 002's `tutor_turn` fields) for the fake provider APIs, whatever
 * the wire it is sent on: the fakes' default turn and the learning-session suites' scripts.
 */

/** Seed 002's fields, in its order: what the forced tool's schema must hold, no more. */
export const seedTurnFields = ['response', 'intent', 'answer_correct', 'misconceptions_detected', 'mastery_signal', 'mastery_updates', 'advance_to_step', 'question_asked', 'expected_answer', 'question_concept', 'session_complete', 'turn_summary', 'reasoning'];

/** A well-formed turn that changes nothing, with `fields` over it. */
export function masterTurnFields(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    response: 'Good.',
    intent: 'answer',
    answer_correct: null,
    misconceptions_detected: [],
    mastery_signal: 'adequate',
    mastery_updates: [],
    advance_to_step: null,
    question_asked: null,
    expected_answer: null,
    question_concept: null,
    session_complete: false,
    turn_summary: '',
    reasoning: '',
    ...fields,
  };
}
