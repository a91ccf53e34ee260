/**
 * Practice steps (SPEC §4.4, seed 000 "LEARNING"): the backend generates an item from the
 * step's skill blueprint with the assessment generators, at a level that follows the
 * concept's mastery, presents it as a widget and scores it on the server (code in the
 * sandbox). Generation is seeded by session and position, so a restart yields the same item.
 */
import { answerForKind, type Widget, type WidgetAnswer } from '@tutorloop/shared';
import { codeExamples, createRandom, generateItem, scoreChoice, scoreCode, type Catalog, type CodeRunner, type CodeScore, type GeneratedItem } from '../assessment';
import { difficultyLevels, type DifficultyLevel } from '../assessment/blueprint-schema';
import { supportsLevel } from '../assessment/catalog';
import { casesAtLevel } from '../assessment/difficulty';
import { pickOne } from '../assessment/random';
import type { LearningSessionState } from './learning-state';
import type { PracticeView } from './learning-port';
import { practiceOwed, stepOf } from './learning-rules';

/** The level of the next item: easy while a concept is new or weak, then medium, then hard. */
export function practiceLevel(mastery: number | undefined): DifficultyLevel {
  if (mastery === undefined || mastery < 0.4) return 'easy';
  if (mastery < 0.75) return 'medium';
  return 'hard';
}

/** A fresh item of the skill for position `position` of the session, unlike any in `exclude`. */
export function generatePracticeItem(
  catalog: Catalog,
  request: { skillId: string; sessionId: string; position: number; mastery: number | undefined; exclude: ReadonlySet<string> },
): GeneratedItem {
  const skill = catalog.getSkill(request.skillId);
  if (!skill) throw new Error(`unknown skill blueprint "${request.skillId}"`);
  const wanted = practiceLevel(request.mastery);
  // The wanted level if the skill has it, else the nearest one it has.
  const order = [...difficultyLevels].sort((a, b) => Math.abs(difficultyLevels.indexOf(a) - difficultyLevels.indexOf(wanted)) - Math.abs(difficultyLevels.indexOf(b) - difficultyLevels.indexOf(wanted)));
  const level = order.find((candidate) => supportsLevel(skill, candidate));
  if (!level) throw new Error(`skill blueprint "${request.skillId}" has no usable level`);
  const random = createRandom(`${request.sessionId}|practice|${request.position}`);
  const caseName = pickOne(random, casesAtLevel(skill.blueprint.difficultyFactors, level));
  return generateItem(skill, { sectionId: 'practice', caseName }, random, request.exclude);
}

/** The widget presenting an item: its stem and options or starter code, never its answer. */
export function practiceWidget(item: GeneratedItem): Omit<Widget, 'widgetId'> {
  if (item.kind === 'code' && item.code) {
    // The visible examples: the learner may run their code on them before answering (issue 25 item 2).
    const examples = codeExamples(item.code);
    return { kind: 'code_editor', props: { prompt: item.stem, language: item.code.language, starterCode: item.code.starterCode, ...(examples.length > 0 ? { examples } : {}) } };
  }
  return { kind: 'multiple_choice', props: { prompt: item.stem, options: [...(item.options ?? [])], context: 'Practice' } };
}

/**
 * Scores a practice answer on the server: a choice exactly, code against the item's tests in
 * the sandbox. The answer is read as the kind of the widget the item was presented as.
 */
export async function scorePracticeAnswer(runner: CodeRunner, item: GeneratedItem, response: WidgetAnswer, owner: string, signal: AbortSignal): Promise<CodeScore> {
  const misfit: CodeScore = { credit: 0, testsPassed: null, testsTotal: null, note: 'the answer does not fit this item' };
  const answer = answerForKind(practiceWidget(item).kind, response);
  if (!answer) return misfit;
  switch (answer.kind) {
    case 'multiple_choice':
      return { credit: scoreChoice(item, answer.answer.selectedIndex), testsPassed: null, testsTotal: null, note: null };
    case 'code_editor':
      return item.code ? scoreCode(runner, item.code, { code: answer.answer.code, owner }, signal) : misfit;
    case 'free_text':
    case 'rating':
      return misfit;
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * What the tutor is told about practice on the current step: the item shown (or just answered —
 * never its answer), the step's progress, the server's verdict on the answer just scored, and
 * whether a new item goes with this reply. Null off a practice step.
 */
export function practiceView(
  state: LearningSessionState,
  lastItem: GeneratedItem | null,
  scored: { credit: number; answerText: string; note: string | null } | null,
): PracticeView | null {
  const step = stepOf(state);
  if (step.type !== 'practice') return null;
  const progress = state.practice && state.practice.step === step.number ? state.practice : { presented: 0, answered: 0 };
  return {
    stem: lastItem?.stem ?? step.contentHint,
    kind: lastItem?.kind ?? 'multiple_choice',
    ...(lastItem?.options ? { options: [...lastItem.options] } : {}),
    answered: progress.answered,
    total: step.items,
    outcome: scored ? { correct: scored.credit >= 0.999, credit: scored.credit, learnerAnswer: scored.answerText.slice(0, 500), note: scored.note } : null,
    presenting: practiceOwed(state),
  };
}
