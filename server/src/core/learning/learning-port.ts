/**
 * The learning tutor port (SPEC §4.4, §7): the model calls a learning session makes besides
 * the safety gate — the master tutor (one structured call per turn), the welcome and the
 * post-completion reply. It is built in this folder: over a model provider's models and any
 * vendor transport (learning-model.ts), or deterministically when the provider is offline
 * (offline-learning-tutor.ts); the registry picks one (`learningTutorFor`). Outputs are passed
 * on raw: the engine validates them (tutor-turn.ts), so a provider never repairs or swallows
 * what the model said.
 */
import type { StudyPlanContent, StudyPlanStep } from '@tutorloop/shared';
import type { OpenQuestion } from './learning-state';
import type { LearnerStyle, PacingDirective } from './signals';

/** Token counts of a call, when the provider knows them. */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One call's answer. `attempts` > 1 when the transport retried. */
export interface LearningCall<T> {
  output: T;
  usage: CallUsage | null;
  /** The model that answered (`offline` for the local tutor). */
  model: string;
}

/** A message of the recent conversation, as the master tutor reads it. */
export interface RecentMessage {
  role: 'learner' | 'tutor';
  content: string;
}

/** A practice item as the tutor may see it: never its answer (the server scores it). */
export interface PracticeView {
  /** The item the reply presents (the widget shows it under the reply), or the one just answered. */
  stem: string;
  kind: 'multiple_choice' | 'code';
  options?: string[];
  /** Items of this step: answered so far, and how many the step has. */
  answered: number;
  total: number;
  /** The outcome of the item the learner just answered (immediate feedback is allowed here). */
  outcome: { correct: boolean; credit: number; learnerAnswer: string; note: string | null } | null;
  /** A new item is shown with this reply. */
  presenting: boolean;
}

/** Everything the master tutor needs for one turn, built fresh from the database. */
export interface MasterTurnInput {
  sessionId: string;
  studyPlanId: string;
  plan: StudyPlanContent;
  /** The learner turn being answered. */
  turn: number;
  step: StudyPlanStep;
  /** The plan's check questions of this step not asked yet (index into `step.questions`). */
  unaskedQuestions: number[];
  mastery: Array<{ concept: string; score: number | null }>;
  misconceptions: Array<{ concept: string; description: string; timesSeen: number; resolved: boolean }>;
  /** One line per earlier turn (the model's turn summaries). */
  timeline: string[];
  pacing: PacingDirective;
  style: LearnerStyle;
  openQuestion: OpenQuestion | null;
  /** The last 10 messages, oldest first, without the learner message below. */
  recentMessages: RecentMessage[];
  /** The learner's message this turn (null when the turn is a practice answer). */
  learnerMessage: string | null;
  practice: PracticeView | null;
  /** The plan is done and the learner is in the extension. */
  extension: boolean;
  planComplete: boolean;
  /** Set on the one retry after a malformed answer: what was wrong with it. */
  retryNote?: string;
}

export interface WelcomeInput {
  sessionId: string;
  plan: StudyPlanContent;
  /** The first step, which the welcome opens. */
  step: StudyPlanStep;
}

export interface PostCompletionInput {
  sessionId: string;
  plan: StudyPlanContent;
  learnerMessage: string;
  recentMessages: RecentMessage[];
  /** Concepts and their coarse level, for a context-aware answer. */
  concepts: Array<{ concept: string; level: string }>;
}

export interface LearningTutor {
  /** The master tutor's structured turn, raw (a tool input object or text). */
  masterTurn(input: MasterTurnInput, signal: AbortSignal): Promise<LearningCall<unknown>>;
  /** The welcome: 2–3 sentences and one simple question (seed 002). */
  welcome(input: WelcomeInput, signal: AbortSignal): Promise<LearningCall<string>>;
  /** A short, context-aware reply once the plan is complete. */
  postCompletion(input: PostCompletionInput, signal: AbortSignal): Promise<LearningCall<string>>;
}
