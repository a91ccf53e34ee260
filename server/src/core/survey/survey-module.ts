/**
 * Survey sessions as a session module (SPEC §4.5): created from a survey the learner may read
 * (their own, a shared one or a built-in one), whose definition is copied into the session's
 * state — so editing or deleting the survey never changes a session already running.
 */
import type { SessionModule } from '../session/session-module';
import { canReadSurvey } from './access';
import { SurveyRoom, surveySessionSummary, surveyState, type SurveyRoomDeps } from './survey-room';
import { initialSurveyState } from './survey-rules';
import { surveySnapshotNeeds } from './survey-state';

/** What the module needs is what its rooms need. */
export type SurveyModuleDeps = SurveyRoomDeps;

export function surveyModule(deps: SurveyModuleDeps): SessionModule<'survey'> {
  return {
    type: 'survey',
    snapshotNeeds: surveySnapshotNeeds,
    async create({ learnerId, body, now }) {
      const id = deps.ids.next();
      return deps.storage.transaction(async (tx) => {
        const survey = await tx.surveys.get(body.surveyId);
        // A survey the learner may not read is indistinguishable from none.
        if (!survey || !canReadSurvey(survey, learnerId)) {
          return { ok: false, error: { code: 'not_found', message: `No survey "${body.surveyId}"; GET /api/surveys lists the surveys you can take.` } } as const;
        }
        await tx.sessions.create({ id, learnerId, status: 'pending', title: survey.title, recallSetId: null, typeState: initialSurveyState(survey.id, survey.survey), createdAt: now });
        return { ok: true, value: id } as const;
      });
    },
    /** Questions done (answered or skipped) of the survey's questions. */
    async progress(_reader, session) {
      return { recalledCount: session.typeState.answers.length, totalPoints: session.typeState.survey.questions.length };
    },
    openRoom(sessionId, onIdle) {
      return new SurveyRoom(sessionId, deps, onIdle);
    },
    state: (snapshot) => surveyState(snapshot),
    summary: (snapshot, now) => surveySessionSummary(snapshot, now),
  };
}
