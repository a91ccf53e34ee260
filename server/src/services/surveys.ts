/**
 * Surveys over REST (SPEC §4.5, §6), through the storage port, with the rules of study plans:
 * a learner reads their own surveys, the shared ones and the built-in ones; only the author
 * writes one, and no one writes a built-in one. Another learner's private survey answers as if
 * absent (404); a survey one may read but not write answers 403 — and so do its results,
 * which are the author's alone.
 */
import type { SurveyBody, SurveyDetail, SurveyResults, SurveySummary } from '@tutorloop/shared';
import { uuidGenerator, type IdGenerator } from '../core/ports';
import type { Storage, StorageReader } from '../core/storage/storage';
import type { BuiltInSurvey, StoredSurvey, SurveyReader } from '../core/storage/surveys';
import { canReadSurvey, canReadSurveyResults, canWriteSurvey } from '../core/survey/access';
import { surveyResults, surveyResultsCsv, type Respondent } from '../core/survey/survey-results';
import { AppError } from './app-error';

export class SurveyService {
  constructor(
    private readonly storage: Storage,
    private readonly ids: IdGenerator = uuidGenerator,
  ) {}

  list(learnerId: string): Promise<SurveySummary[]> {
    return this.storage.read(async (reader) => (await reader.surveys.listVisibleTo(learnerId)).map((survey) => summarize(survey, learnerId)));
  }

  get(learnerId: string, surveyId: string): Promise<SurveyDetail> {
    return this.storage.read(async (reader) => detail(await readable(reader.surveys, learnerId, surveyId), learnerId));
  }

  async create(learnerId: string, body: SurveyBody, now: Date): Promise<SurveyDetail> {
    const stored = await this.storage.transaction((tx) => tx.surveys.create({ id: this.ids.next(), ownerId: learnerId, shared: body.shared, survey: body.survey, createdAt: now }));
    return detail(stored, learnerId);
  }

  /** Replaces the survey and its shared flag (PUT): the author only. Sessions already running keep their copy. */
  async update(learnerId: string, surveyId: string, body: SurveyBody, now: Date): Promise<SurveyDetail> {
    const stored = await this.storage.transaction(async (tx) => {
      writable(await readable(tx.surveys, learnerId, surveyId), learnerId);
      return tx.surveys.update(surveyId, { survey: body.survey, shared: body.shared }, now);
    });
    return detail(stored, learnerId);
  }

  async delete(learnerId: string, surveyId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      writable(await readable(tx.surveys, learnerId, surveyId), learnerId);
      await tx.surveys.delete(surveyId);
    });
  }

  /** The aggregated results (owner only). */
  results(learnerId: string, surveyId: string): Promise<SurveyResults> {
    return this.storage.read(async (reader) => {
      const { survey, responses, respondents } = await this.collect(reader, learnerId, surveyId);
      return surveyResults(survey.id, survey.survey, responses, respondents);
    });
  }

  /** The results as CSV, one row per respondent (owner only). */
  resultsCsv(learnerId: string, surveyId: string): Promise<{ filename: string; text: string }> {
    return this.storage.read(async (reader) => {
      const { survey, responses, respondents } = await this.collect(reader, learnerId, surveyId);
      return { filename: `${survey.id}-results.csv`, text: surveyResultsCsv(survey.survey, responses, respondents) };
    });
  }

  /** Installs the surveys shipped with the server (at start); a built-in survey no longer shipped is removed. */
  async installBuiltIns(surveys: readonly BuiltInSurvey[], now: Date): Promise<void> {
    await this.storage.transaction(async (tx) => {
      const shipped = new Set(surveys.map((survey) => survey.id));
      for (const stale of (await tx.surveys.listBuiltIn()).filter((survey) => !shipped.has(survey.id))) await tx.surveys.delete(stale.id);
      for (const survey of surveys) await tx.surveys.upsertBuiltIn(survey, now);
    });
  }

  private async collect(reader: StorageReader, learnerId: string, surveyId: string) {
    const survey = await readable(reader.surveys, learnerId, surveyId);
    if (!canReadSurveyResults(survey, learnerId)) {
      throw new AppError('forbidden', survey.builtIn ? 'The results of a built-in survey are not available through the API.' : 'Only the author of a survey can see its results.');
    }
    const responses = await reader.surveys.listResponses(surveyId);
    const respondents: Respondent[] = [];
    for (const sessionId of new Set(responses.map((response) => response.sessionId))) {
      const session = await reader.sessions.get(sessionId);
      respondents.push({ sessionId, completed: session?.status === 'completed' && session.endReason === 'all_answered' });
    }
    return { survey, responses, respondents };
  }
}

async function readable(surveys: SurveyReader, learnerId: string, surveyId: string): Promise<StoredSurvey> {
  const survey = await surveys.get(surveyId);
  if (!survey || !canReadSurvey(survey, learnerId)) throw new AppError('not_found', 'No survey with that id.');
  return survey;
}

function writable(survey: StoredSurvey, learnerId: string): void {
  if (canWriteSurvey(survey, learnerId)) return;
  throw new AppError('forbidden', survey.builtIn ? 'Built-in surveys cannot be changed; create a copy to edit it.' : 'Only the author of a survey can change or delete it.');
}

function summarize(survey: StoredSurvey, learnerId: string): SurveySummary {
  return {
    id: survey.id,
    title: survey.title,
    description: survey.survey.description ?? null,
    questionCount: survey.survey.questions.length,
    shared: survey.shared,
    owned: survey.ownerId === learnerId,
    builtIn: survey.builtIn,
    createdAt: survey.createdAt.toISOString(),
    updatedAt: survey.updatedAt.toISOString(),
  };
}

function detail(survey: StoredSurvey, learnerId: string): SurveyDetail {
  return { ...summarize(survey, learnerId), survey: survey.survey };
}
