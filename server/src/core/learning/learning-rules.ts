/**
 * The state rules of a learning session (SPEC §4.4 step 6), pure: what a validated master-tutor
 * turn changes — mastery per concept, misconceptions, the question lifecycle, the step, the
 * off-topic count, completion and the extension — and what a learner may see of it.
 *
 * Mastery rule (documented in ARCHITECTURE.md): each concept holds a score in [0, 1]; a piece
 * of evidence e ∈ [0, 1] moves it halfway: m ← m + ½(e − m), starting from 0. Evidence is the
 * model's `mastery_updates` score for the concept; failing that, a judged answer to a question
 * on it (right 1, wrong 0); a scored practice item's credit always counts, and the model's
 * score for the same concept that turn is ignored (the server's score is the truth).
 * Levels: no evidence → not_started, < 0.4 learning, < 0.8 developing, else mastered.
 */
import type { LearningProgress, LearningSummary, MasteryLevel, StudyPlanContent, StudyPlanStep } from '@tutorloop/shared';
import type { LearningSessionState, LearningTimelineEntry, OpenQuestion } from './learning-state';
import type { TutorTurn } from './tutor-turn';

export const masteryRate = 0.5;
export const masteryLevels = { developing: 0.4, mastered: 0.8 } as const;
/** Extension turns an advanced learner may take past the plan (seed 002). */
export const maxExtensionTurns = 10;
/** Mean mastery at which a finished plan counts as aced (the extension's gate). */
export const acedMastery = 0.8;

export function blendMastery(previous: number | undefined, evidence: number): number {
  const from = previous ?? 0;
  return Math.round((from + masteryRate * (Math.min(1, Math.max(0, evidence)) - from)) * 1000) / 1000;
}

export function masteryLevel(score: number | undefined): MasteryLevel {
  if (score === undefined) return 'not_started';
  if (score < masteryLevels.developing) return 'learning';
  if (score < masteryLevels.mastered) return 'developing';
  return 'mastered';
}

/** The plan's concepts, in the order their steps first name them. */
export function planConcepts(plan: StudyPlanContent): string[] {
  return [...new Set(plan.steps.map((step) => step.concept))];
}

/** Mean mastery over the plan's concepts (a concept without evidence counts 0). */
export function meanMastery(plan: StudyPlanContent, mastery: Record<string, number>): number {
  const concepts = planConcepts(plan);
  if (concepts.length === 0) return 0;
  return concepts.reduce((sum, concept) => sum + (mastery[concept] ?? 0), 0) / concepts.length;
}

export function stepOf(state: LearningSessionState, number = state.currentStep): StudyPlanStep {
  const step = state.plan.steps[number - 1];
  if (!step) throw new Error(`step ${number} is outside the plan (1..${state.plan.steps.length})`);
  return step;
}

/** The phase a question moves to after its n-th wrong answer: probe, hint, then explain. */
export function phaseAfterWrong(wrongAttempts: number): OpenQuestion['phase'] {
  if (wrongAttempts <= 0) return 'asked';
  if (wrongAttempts === 1) return 'probe';
  if (wrongAttempts === 2) return 'hint';
  return 'explain';
}

/** What the turn brought besides the model's output. */
export interface TurnFacts {
  /** The learner turn number. */
  turn: number;
  /** The learner's message this turn answered, when it was a chat message. */
  learnerMessage: string | null;
  /** Credit of the practice item the learner just answered (scored by the server). */
  practiceCredit: number | null;
}

export interface AppliedTurn {
  state: LearningSessionState;
  /** The session ends now (plan complete, no extension or the extension used up). */
  completeSession: boolean;
  /** The open question was closed by this turn, and how. */
  closedQuestion: { question: OpenQuestion; outcome: 'right' | 'explained' | 'moved_on' } | null;
  /** What the engine refused of the model's output (logged with the call). */
  refused: string[];
}

/** Applies a validated turn to the state (SPEC §4.4 step 6). */
export function applyTurn(state: LearningSessionState, turn: TutorTurn, facts: TurnFacts): AppliedTurn {
  const refused: string[] = [];
  const totalSteps = state.plan.steps.length;
  const concepts = new Set(planConcepts(state.plan));
  const mastery = { ...state.mastery };
  let closedQuestion: AppliedTurn['closedQuestion'] = null;
  let { openQuestion, questionsAsked, questionsRight, offTopicCount, currentStep, practice, planComplete, extensionTurns } = state;
  let questionsRightFirstTry = state.questionsRightFirstTry ?? 0;
  let questionsExplained = state.questionsExplained ?? 0;
  const stepsReached = new Set(state.stepsReached);
  let planQuestionsAsked = [...state.planQuestionsAsked];
  const step = stepOf(state);

  // Mastery: the server's practice score first, then the model's estimates, then a judged answer.
  const evidenced = new Set<string>();
  if (facts.practiceCredit !== null) {
    mastery[step.concept] = blendMastery(mastery[step.concept], facts.practiceCredit);
    evidenced.add(step.concept);
  }
  for (const update of turn.masteryUpdates) {
    if (!concepts.has(update.concept) || evidenced.has(update.concept)) continue;
    mastery[update.concept] = blendMastery(mastery[update.concept], update.score);
    evidenced.add(update.concept);
  }

  // The question lifecycle: right → cleared; wrong → probe → hint → explain (explained closes it).
  let correct: boolean | null = null;
  if (openQuestion && turn.answerCorrect !== null && facts.learnerMessage !== null) {
    correct = turn.answerCorrect;
    if (!evidenced.has(openQuestion.concept)) {
      mastery[openQuestion.concept] = blendMastery(mastery[openQuestion.concept], correct ? 1 : 0);
      evidenced.add(openQuestion.concept);
    }
    if (correct) {
      questionsRight += 1;
      if (openQuestion.wrongAttempts === 0) questionsRightFirstTry += 1;
      closedQuestion = { question: openQuestion, outcome: 'right' };
      openQuestion = null;
    } else {
      // "I don't know" says probing is no use: it goes straight to the hint (issue 28 item 1).
      const wrongAttempts = turn.intent === 'confusion' ? Math.max(openQuestion.wrongAttempts + 1, 2) : openQuestion.wrongAttempts + 1;
      const updated: OpenQuestion = {
        ...openQuestion,
        wrongAttempts,
        phase: phaseAfterWrong(wrongAttempts),
        previousAnswers: [...openQuestion.previousAnswers, facts.learnerMessage.slice(0, 300)].slice(-5),
      };
      if (updated.phase === 'explain') {
        questionsExplained += 1;
        closedQuestion = { question: updated, outcome: 'explained' };
        openQuestion = null;
      } else {
        openQuestion = updated;
      }
    }
  }

  // Misconceptions: seen again → counted and reopened; a right answer on a concept resolves its misconceptions.
  let misconceptions = state.misconceptions.map((entry) => ({ ...entry }));
  for (const found of turn.misconceptions) {
    const existing = misconceptions.find((entry) => entry.concept === found.concept && entry.description.toLowerCase() === found.description.toLowerCase());
    if (existing) {
      existing.timesSeen += 1;
      existing.resolved = false;
    } else {
      misconceptions.push({ concept: found.concept, description: found.description, timesSeen: 1, resolved: false });
    }
  }
  if (correct === true && closedQuestion) {
    misconceptions = misconceptions.map((entry) => (entry.concept === closedQuestion!.question.concept ? { ...entry, resolved: true } : entry));
  }

  // The step: forward only (backwards if the plan allows it), never past the last one.
  let completionRequested = turn.sessionComplete;
  if (turn.advanceToStep !== null && turn.advanceToStep !== currentStep) {
    if (turn.advanceToStep === totalSteps + 1) {
      if (currentStep === totalSteps) completionRequested = true;
      else refused.push(`advance_to_step ${turn.advanceToStep} from step ${currentStep}: past the last step`);
    } else if (turn.advanceToStep < currentStep && !state.plan.allowBacktrack) {
      refused.push(`advance_to_step ${turn.advanceToStep} from step ${currentStep}: this plan does not go back`);
    } else {
      currentStep = turn.advanceToStep;
      stepsReached.add(currentStep);
      if (practice && practice.step !== currentStep) practice = null;
      if (openQuestion && openQuestion.step !== currentStep) {
        closedQuestion ??= { question: openQuestion, outcome: 'moved_on' };
        openQuestion = null;
      }
    }
  }

  // A new question asked in the reply (the reply's own, or one of the plan's check questions).
  if (turn.question && (!openQuestion || openQuestion.question !== turn.question.text)) {
    const current = state.plan.steps[currentStep - 1]!;
    const planIndex = current.type === 'check' ? current.questions.findIndex((candidate) => sameText(candidate.question, turn.question!.text)) : -1;
    const planQuestion = planIndex >= 0 && current.type === 'check' ? current.questions[planIndex]! : null;
    openQuestion = {
      question: turn.question.text,
      // A plan question is judged against the author's answer, whatever the model wrote.
      expectedAnswer: planQuestion?.expectedAnswer ?? turn.question.expectedAnswer,
      acceptedAnswers: planQuestion?.acceptedAnswers ?? [],
      concept: concepts.has(turn.question.concept) ? turn.question.concept : current.concept,
      step: currentStep,
      planQuestion: planIndex >= 0 ? planIndex : null,
      phase: 'asked',
      wrongAttempts: 0,
      previousAnswers: [],
      askedAtTurn: facts.turn,
    };
    questionsAsked += 1;
    if (planIndex >= 0) planQuestionsAsked = [...new Set([...planQuestionsAsked, `${currentStep}:${planIndex}`])];
  }

  if (turn.intent === 'off_topic') offTopicCount += 1;

  // Completion: only on the final step; an aced plan that allows it gets up to 10 more turns.
  let completeSession = false;
  if (extensionTurns !== null) {
    extensionTurns += 1;
    if (extensionTurns >= maxExtensionTurns || completionRequested) completeSession = true;
  } else if (completionRequested) {
    if (currentStep !== totalSteps) {
      refused.push(`session_complete on step ${currentStep} of ${totalSteps}: only the final step completes a plan`);
    } else {
      planComplete = true;
      if (state.plan.allowExtension && meanMastery(state.plan, mastery) >= acedMastery) extensionTurns = 0;
      else completeSession = true;
    }
  }

  const entry: LearningTimelineEntry = {
    turn: facts.turn,
    step: currentStep,
    intent: turn.intent,
    correct,
    summary: turn.turnSummary,
    meanMastery: Math.round(meanMastery(state.plan, mastery) * 1000) / 1000,
  };
  return {
    state: {
      ...state,
      mastery,
      misconceptions,
      openQuestion,
      questionsAsked,
      questionsRight,
      questionsRightFirstTry,
      questionsExplained,
      planQuestionsAsked,
      offTopicCount,
      currentStep,
      stepsReached: [...stepsReached].sort((a, b) => a - b),
      practice,
      planComplete,
      extensionTurns,
      timeline: [...state.timeline, entry].slice(-200),
    },
    completeSession,
    closedQuestion,
    refused,
  };
}

function sameText(a: string, b: string): boolean {
  const normal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return normal(a) === normal(b);
}

/** Whether the reply of this turn must present a practice item (the step is practice and owes one). */
export function practiceOwed(state: LearningSessionState): boolean {
  const step = stepOf(state);
  if (step.type !== 'practice') return false;
  const practice = state.practice && state.practice.step === step.number ? state.practice : { presented: 0, answered: 0 };
  return practice.presented === practice.answered && practice.answered < step.items;
}

/** The learner's view of a learning session (SPEC §4.4 privacy): no answers, scores or notes. */
export function learningProgress(state: LearningSessionState): LearningProgress {
  const step = stepOf(state);
  return {
    studyPlanId: state.studyPlanId,
    step: state.currentStep,
    totalSteps: state.plan.steps.length,
    stepType: step.type,
    concept: step.concept,
    steps: state.plan.steps.map((candidate) => ({
      number: candidate.number,
      type: candidate.type,
      concept: candidate.concept,
      status: state.planComplete || candidate.number < state.currentStep ? 'done' : candidate.number === state.currentStep ? 'current' : 'upcoming',
    })),
    concepts: planConcepts(state.plan).map((concept) => ({ concept, level: masteryLevel(state.mastery[concept]) })),
    questionOpen: state.openQuestion !== null,
    extension: state.extensionTurns !== null,
  };
}

/** The learning part of the summary: steps covered, mastery per concept, misconceptions met and resolved. */
export function learningSummary(state: LearningSessionState): LearningSummary {
  const reached = new Set(state.stepsReached);
  // A step counts as covered once the learner has moved past it: the step they stopped on
  // when ending early was reached, not covered (issue 28: "8 of 8 steps" beside "ended early").
  const covered = (number: number) => state.planComplete || (reached.has(number) && number < state.currentStep);
  const timeline = state.timeline;
  const first = timeline[0]?.meanMastery ?? 0;
  const last = timeline[timeline.length - 1]?.meanMastery ?? 0;
  const met = state.misconceptions;
  return {
    studyPlanId: state.studyPlanId,
    planTitle: state.plan.title,
    stepsCovered: state.plan.steps.filter((step) => covered(step.number)).length,
    totalSteps: state.plan.steps.length,
    steps: state.plan.steps.map((step) => ({ number: step.number, type: step.type, concept: step.concept, covered: covered(step.number) })),
    concepts: planConcepts(state.plan).map((concept) => ({ concept, level: masteryLevel(state.mastery[concept]) })),
    misconceptions: { met: met.length, resolved: met.filter((entry) => entry.resolved).length, concepts: [...new Set(met.map((entry) => entry.concept))] },
    questions: {
      asked: state.questionsAsked,
      answeredRight: state.questionsRight,
      // Sessions stored before these were counted report only the total.
      ...(state.questionsRightFirstTry === undefined
        ? {}
        : { rightFirstTry: state.questionsRightFirstTry, rightAfterHelp: state.questionsRight - state.questionsRightFirstTry, explained: state.questionsExplained ?? 0 }),
    },
    trend: last > first + 0.05 ? 'improving' : last < first - 0.05 ? 'declining' : 'steady',
  };
}

/** The state a new learning session starts with. */
export function initialLearningState(studyPlanId: string, plan: StudyPlanContent): LearningSessionState {
  return {
    type: 'learning',
    studyPlanId,
    plan,
    currentStep: 1,
    stepsReached: [1],
    mastery: {},
    misconceptions: [],
    openQuestion: null,
    planQuestionsAsked: [],
    questionsAsked: 0,
    questionsRight: 0,
    questionsRightFirstTry: 0,
    questionsExplained: 0,
    practice: null,
    offTopicCount: 0,
    safetyFlags: 0,
    planComplete: false,
    extensionTurns: null,
    timeline: [],
  };
}
