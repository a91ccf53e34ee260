/**
 * The offline batch evaluator (SPEC §4.1, §7): decides, for one learner message, which of the
 * still-unchecked points it demonstrates, by lexical matching (see `lexical.ts` for the rule
 * and threshold). Deterministic and synchronous.
 *
 * - Evidence is ONLY the latest learner-authored message (chat or widget answer); tutor
 *   messages never count — see `learner-evidence.ts` for why.
 * - Every point of `input.points` is checked; several can be recalled at once. An answer
 *   from the code editor also counts when it contains the code a point quotes in backticks.
 * - confidence = 0.5 + 0.5 × coverage, clamped to 0–1, rounded to 2 decimals. Picking an
 *   option of a multiple-choice widget is recognition rather than free recall, so it is
 *   capped at CHOICE_CONFIDENCE_CAP, and it only credits the point the widget was about
 *   when the widget is one of ours (a wrong pick must not check off the distractor's point).
 * - feedback (for the tutor only): in `recall` mode, what was recalled, the near misses with
 *   their missing terms, and how many remain; in `rabbithole` mode only what was recalled,
 *   or '' when nothing was.
 */
import type { ChecklistPoint, EvaluationInput, EvaluationResult, RecalledPoint } from '../provider';
import { latestLearnerEvidence } from './learner-evidence';
import { codeSpanOf } from './code-points';
import { prepareText, scoreCoverage, type Coverage, type KeyTerm, type PreparedText } from './lexical';
import { pointIdFromToolCallId } from './tool-call-ids';

/** Highest confidence credited for picking the right option of a multiple-choice widget. */
export const CHOICE_CONFIDENCE_CAP = 0.6;
/** Most near misses named in the feedback. */
export const MAX_NEAR_MISSES_IN_FEEDBACK = 3;
/** Most key terms listed in one observation. */
const MAX_TERMS_LISTED = 8;
/** Longest quotation of a point in the feedback. */
const SNIPPET_MAX_LENGTH = 60;

/** confidence = 0.5 + 0.5 × coverage, clamped to 0–1 and rounded to 2 decimals. */
export function confidenceFromCoverage(coverage: number): number {
  const c = Math.min(1, Math.max(0, 0.5 + 0.5 * coverage));
  return Math.round(c * 100) / 100;
}

function listTerms(terms: readonly KeyTerm[]): string {
  const shown = terms.slice(0, MAX_TERMS_LISTED).map((t) => t.surface);
  return shown.join(', ') + (terms.length > MAX_TERMS_LISTED ? ', …' : '');
}

function termCount(c: Coverage): string {
  const n = c.keyTerms.length;
  if (c.hits.length === n) return n === 1 ? 'the key term' : `all ${n} key terms`;
  return `${c.hits.length} of ${n} key terms`;
}

function observationFor(c: Coverage, viaChoice: boolean): string {
  const base = `mentioned ${termCount(c)}: ${listTerms(c.hits)}`;
  return viaChoice ? `picked it in a multiple-choice question (recognition, not free recall); ${base}` : base;
}

function snippet(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_MAX_LENGTH) return `"${flat}"`;
  const cut = flat.slice(0, SNIPPET_MAX_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `"${(space > SNIPPET_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…"`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

interface Scored {
  point: ChecklistPoint;
  coverage: Coverage;
}

function recallFeedback(recalled: Scored[], nearMisses: Scored[], remaining: number): string {
  const parts: string[] = [];
  if (recalled.length > 0) {
    parts.push(`Recalled just now: ${recalled.map((s) => `${snippet(s.point.content)} (${termCount(s.coverage)})`).join('; ')}.`);
  } else {
    parts.push('Nothing new recalled in the latest message.');
  }
  for (const s of nearMisses) {
    parts.push(`Near miss: ${snippet(s.point.content)} — mentioned ${listTerms(s.coverage.hits)}; missing ${listTerms(s.coverage.missing)}.`);
  }
  if (remaining === 0) {
    parts.push('Every idea has now been recalled.');
  } else {
    parts.push(`${plural(remaining, 'idea', 'ideas')} still to recall.`);
    parts.push(
      recalled.length > 0
        ? 'Acknowledge briefly, then cue the next idea without giving it away.'
        : 'Cue the current idea again with a stronger hint, without giving it away.',
    );
  }
  return parts.join(' ');
}

function rabbitholeFeedback(recalled: Scored[]): string {
  if (recalled.length === 0) return '';
  return `Recalled: ${recalled.map((s) => snippet(s.point.content)).join('; ')}.`;
}

/**
 * Coverage of a point by the learner's text. Code from the editor is also matched against
 * the code the point quotes (a program never contains the prose around it); the better wins.
 */
function coverageOf(text: PreparedText, point: ChecklistPoint, viaCode: boolean): Coverage {
  const whole = scoreCoverage(text, point.content);
  const span = viaCode ? codeSpanOf(point.content) : null;
  if (!span || whole.recalled) return whole;
  const code = scoreCoverage(text, span);
  return code.recalled ? code : whole;
}

/** Which of `input.points` the latest learner message recalls, with feedback for the tutor. */
export function evaluateOffline(input: EvaluationInput): EvaluationResult {
  const seen = new Set<string>();
  const points = input.points.filter((p) => !seen.has(p.id) && seen.add(p.id));
  if (points.length === 0) return { recalledPoints: [], feedback: '' };

  const evidence = latestLearnerEvidence(input.recentMessages);
  const text = prepareText(evidence?.text ?? '');
  const viaChoice = evidence?.source === 'choice';
  // A pick in one of our own multiple-choice widgets only speaks for the point it was about.
  const choicePointId = viaChoice && evidence.toolCallId ? pointIdFromToolCallId(evidence.toolCallId) : null;

  const viaCode = evidence?.source === 'code';
  const scored: Scored[] = points.map((point) => ({ point, coverage: coverageOf(text, point, viaCode) }));
  const recalled = scored.filter(
    (s) => s.coverage.recalled && (choicePointId === null || s.point.id === choicePointId),
  );
  const recalledIds = new Set(recalled.map((s) => s.point.id));

  const recalledPoints: RecalledPoint[] = recalled.map((s) => {
    const confidence = confidenceFromCoverage(s.coverage.coverage);
    return {
      id: s.point.id,
      confidence: viaChoice ? Math.min(confidence, CHOICE_CONFIDENCE_CAP) : confidence,
      observation: observationFor(s.coverage, viaChoice),
    };
  });

  if (input.mode === 'rabbithole') return { recalledPoints, feedback: rabbitholeFeedback(recalled) };

  const nearMisses = scored
    .filter((s) => !recalledIds.has(s.point.id) && s.coverage.nearMiss)
    .sort((a, b) => b.coverage.coverage - a.coverage.coverage)
    .slice(0, MAX_NEAR_MISSES_IN_FEEDBACK);
  const remaining = points.length - recalled.length;
  return { recalledPoints, feedback: recallFeedback(recalled, nearMisses, remaining) };
}
