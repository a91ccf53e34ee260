/**
 * The per-type state of a session (SPEC §4), composed from the schema each session type
 * declares in its own folder: what only one type needs, stored as one JSON value validated by
 * the schema of its type instead of a column per field. A session's `type` and its state's
 * `type` are the same by construction: the type is taken from the state when the session is
 * created, and a state of another type is refused on update.
 *
 * Storage names no session type: it receives this catalog (`sessionTypeCatalog`) when it is
 * constructed, beside the registry of modules (session-modules.ts).
 *
 * Evolving a type's state needs no migration, but every row written earlier must still
 * parse: add fields with `.default(…)`, never rename or narrow one in place.
 */
import { z } from 'zod';
import type { SessionType } from '@tutorloop/shared';
import { AssessmentSessionState, assessmentSnapshotNeeds } from './assessment-session/assessment-state';
import { ClozeSessionState, clozeSnapshotNeeds } from './cloze/cloze-state';
import { LearningSessionState, learningSnapshotNeeds } from './learning/learning-state';
import { RecallSessionState, recallSnapshotNeeds } from './recall/recall-state';
import type { SessionTypeCatalog } from './storage/session-type-state';
import { SurveySessionState, surveySnapshotNeeds } from './survey/survey-state';
import { ThoughtSessionState, thoughtSnapshotNeeds } from './thought/thought-state';

/** Every session type's state, keyed on `type`. */
export const SessionTypeState = z.discriminatedUnion('type', [RecallSessionState, AssessmentSessionState, LearningSessionState, ThoughtSessionState, SurveySessionState, ClozeSessionState]);
export type SessionTypeState = z.infer<typeof SessionTypeState>;

/** The state of one session type. */
export type SessionTypeStateOf<K extends SessionType> = Extract<SessionTypeState, { type: K }>;

// A session type added to the shared enum without a state here fails to compile (so does one
// without snapshot needs, below).
const coversEverySessionType: Record<SessionType, true> = {
  recall: true,
  assessment: true,
  learning: true,
  thought: true,
  survey: true,
  cloze: true,
} satisfies Record<SessionTypeState['type'], true>;
void coversEverySessionType;

/**
 * What storage is told about the session types (storage/session-type-state.ts): every state
 * schema, and what each type's snapshot loads — the declaration its module carries as
 * `snapshotNeeds`, read here without building a module (storage exists before them).
 */
export const sessionTypeCatalog: SessionTypeCatalog = {
  states: SessionTypeState,
  snapshotNeeds: {
    recall: recallSnapshotNeeds,
    assessment: assessmentSnapshotNeeds,
    learning: learningSnapshotNeeds,
    thought: thoughtSnapshotNeeds,
    survey: surveySnapshotNeeds,
    cloze: clozeSnapshotNeeds,
  },
};
