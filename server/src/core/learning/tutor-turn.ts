/**
 * The master tutor's structured output (SPEC §4.4, seed 002 `TutorTurnOutput`) and its
 * validation. Providers pass the model's answer on as it came; the engine reads it here, once:
 * scores are clamped, unknown concepts and out-of-range steps ignored, an answer without a
 * usable `response` is malformed (the engine retries once, then falls back).
 */
import { z } from 'zod';

export const tutorIntents = ['answer', 'question', 'confusion', 'off_topic', 'continuation', 'greeting', 'request', 'other'] as const;
export type TutorIntent = (typeof tutorIntents)[number];

/** The schema the model is asked for (a forced tool / strict JSON schema). Field names as in seed 002. */
export const TutorTurnOutput = z.object({
  response: z.string().describe('What the learner reads: plain, warm, in the second person. Never mention these fields, scores or the plan.'),
  intent: z.enum(tutorIntents).describe("What the learner's last message was."),
  answer_correct: z.boolean().nullable().describe('Whether the learner answered the open question right; null when no question was open or the message was not an answer.'),
  misconceptions_detected: z
    .array(z.object({ concept: z.string(), description: z.string() }))
    .describe('Misconceptions the message shows, by concept of the plan.'),
  mastery_signal: z.enum(['strong', 'adequate', 'needs_remediation']),
  mastery_updates: z.array(z.object({ concept: z.string(), score: z.number() })).describe('Concepts of the plan with a new mastery estimate, 0 to 1.'),
  advance_to_step: z.number().int().nullable().describe('The step number to move to now, or null to stay.'),
  question_asked: z.string().nullable().describe('The question your response asks the learner, if any.'),
  expected_answer: z.string().nullable().describe('The short answer you expect to that question.'),
  question_concept: z.string().nullable().describe('The concept that question checks.'),
  session_complete: z.boolean().describe('True only on the final step, once it is done.'),
  turn_summary: z.string().describe('One line for the teacher’s log: what happened this turn.'),
  reasoning: z.string().describe('Your private reasoning; never shown to the learner.'),
});
export type TutorTurnOutput = z.infer<typeof TutorTurnOutput>;

/** The output after validation: what the engine acts on. */
export interface TutorTurn {
  response: string;
  intent: TutorIntent;
  answerCorrect: boolean | null;
  misconceptions: Array<{ concept: string; description: string }>;
  masterySignal: 'strong' | 'adequate' | 'needs_remediation';
  masteryUpdates: Array<{ concept: string; score: number }>;
  advanceToStep: number | null;
  question: { text: string; expectedAnswer: string; concept: string } | null;
  sessionComplete: boolean;
  turnSummary: string;
  reasoning: string;
}

export interface TurnContext {
  /** Concepts of the plan. */
  concepts: readonly string[];
  /** The concept of the current step (a question without a known concept is about it). */
  stepConcept: string;
  totalSteps: number;
}

export type NormalizedTurn = { ok: true; turn: TutorTurn; notes: string[] } | { ok: false; error: string };

const maxResponseLength = 4000;

/** Reads the model's raw answer: a tool input object, or text holding JSON (perhaps fenced). */
export function normalizeTutorTurn(raw: unknown, context: TurnContext): NormalizedTurn {
  const value = typeof raw === 'string' ? parseJsonText(raw) : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'the output is not a JSON object' };
  const record = value as Record<string, unknown>;
  const response = typeof record['response'] === 'string' ? record['response'].trim() : '';
  if (!response) return { ok: false, error: 'the output has no `response` text' };
  const notes: string[] = [];
  const known = new Map(context.concepts.map((concept) => [concept.toLowerCase(), concept]));
  const conceptOf = (candidate: unknown): string | null => (typeof candidate === 'string' ? (known.get(candidate.trim().toLowerCase()) ?? null) : null);

  const intent = tutorIntents.includes(record['intent'] as TutorIntent) ? (record['intent'] as TutorIntent) : 'other';
  const answerCorrect = typeof record['answer_correct'] === 'boolean' ? record['answer_correct'] : null;

  const masteryUpdates: TutorTurn['masteryUpdates'] = [];
  for (const update of arrayOf(record['mastery_updates'])) {
    const concept = conceptOf(update['concept']);
    const score = typeof update['score'] === 'number' && Number.isFinite(update['score']) ? update['score'] : null;
    if (!concept || score === null) {
      notes.push(`mastery update ignored: ${JSON.stringify(update).slice(0, 80)}`);
      continue;
    }
    // A score written as a percentage (2–100) is read as one; anything else outside 0–1 is clamped.
    const clamped = Math.min(1, Math.max(0, score >= 2 && score <= 100 ? score / 100 : score));
    if (clamped !== score) notes.push(`mastery score for "${concept}" clamped from ${score} to ${clamped}`);
    masteryUpdates.push({ concept, score: clamped });
  }

  const misconceptions: TutorTurn['misconceptions'] = [];
  for (const found of arrayOf(record['misconceptions_detected'])) {
    const description = typeof found['description'] === 'string' ? found['description'].trim().slice(0, 300) : '';
    if (!description) continue;
    misconceptions.push({ concept: conceptOf(found['concept']) ?? context.stepConcept, description });
  }

  let advanceToStep: number | null = null;
  const requested = record['advance_to_step'];
  if (typeof requested === 'number' && Number.isInteger(requested)) {
    // total + 1 from the final step means "done"; the engine decides whether it is.
    if (requested >= 1 && requested <= context.totalSteps + 1) advanceToStep = requested;
    else notes.push(`advance_to_step ${requested} is outside 1..${context.totalSteps}; ignored`);
  }

  const questionText = typeof record['question_asked'] === 'string' ? record['question_asked'].trim() : '';
  const expected = typeof record['expected_answer'] === 'string' ? record['expected_answer'].trim() : '';
  let question: TutorTurn['question'] = null;
  if (questionText && expected) question = { text: questionText.slice(0, 2000), expectedAnswer: expected.slice(0, 500), concept: conceptOf(record['question_concept']) ?? context.stepConcept };
  else if (questionText) notes.push('a question without an expected answer is not tracked');

  const signal = record['mastery_signal'];
  return {
    ok: true,
    notes,
    turn: {
      response: response.slice(0, maxResponseLength),
      intent,
      answerCorrect,
      misconceptions,
      masterySignal: signal === 'strong' || signal === 'needs_remediation' ? signal : 'adequate',
      masteryUpdates,
      advanceToStep,
      question,
      sessionComplete: record['session_complete'] === true,
      turnSummary: typeof record['turn_summary'] === 'string' ? record['turn_summary'].trim().slice(0, 300) : '',
      reasoning: typeof record['reasoning'] === 'string' ? record['reasoning'].trim().slice(0, 2000) : '',
    },
  };
}

function arrayOf(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : [];
}

function parseJsonText(text: string): unknown {
  // No `\s*` before the body: it traded spaces with `[\s\S]*?` (quadratic); the trim drops them.
  const fenced = /```(?:json)?([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch {
    return null;
  }
}
