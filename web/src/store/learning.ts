import type {
  LearningProgress,
  MasteryLevel,
  SessionListItem,
  StudyPlanStepType,
  StudyPlanSummary,
} from '@tutorloop/shared';

/**
 * The pure parts of the study plan pages and the learning session view (SPEC §4.4): how the
 * server's `field: message` errors become a list an author can act on, how steps and mastery
 * levels are worded, and the starter plans of the editor.
 */

// ---------------------------------------------------------------------------
// Validation problems
// ---------------------------------------------------------------------------

/** One problem of a plan, as the server reported it and as the editor shows it. */
export interface PlanProblem {
  /** The field as the server wrote it (`plan.steps.2.concept`), or null when the message names none. */
  field: string | null;
  /** The field for people: `Step 3 › Concept`; null when the message names none. */
  label: string | null;
  message: string;
  /** The line of the submitted text (Markdown imports say where). */
  line: number | null;
}

/**
 * A field path at the start of one problem: a dotted path (`plan.steps.2.concept`, `text`) or
 * the Markdown importer's `front matter`. A path never holds a space, so a message's own
 * "; write it on an …" is not mistaken for the start of the next problem.
 */
const fieldStart = /^(front matter|[A-Za-z_][\w]*(?:\.[\w-]+)*): /;
const moreStart = /^and (\d+) more$/;
const lineSuffix = / \(line (\d+)\)$/;

const fieldNames: Record<string, string> = {
  title: 'Title',
  topic: 'Topic',
  audience: 'Audience',
  objectives: 'Objectives',
  prerequisites: 'Prerequisites',
  misconceptions: 'Misconceptions',
  teachingApproach: 'Teaching approach',
  allowExtension: 'Allow extension',
  allowBacktrack: 'Allow backtrack',
  steps: 'Steps',
  number: 'Number',
  type: 'Type',
  concept: 'Concept',
  contentHint: 'Content hint',
  questions: 'Questions',
  question: 'Question',
  expectedAnswer: 'Expected answer',
  acceptedAnswers: 'Accepted answers',
  skillBlueprintId: 'Skill blueprint',
  items: 'Items',
  description: 'Description',
  shared: 'Shared',
  text: 'Text',
  format: 'Format',
  'front matter': 'Front matter',
};

/** Lists whose entries are named one by one ("Step 3", "Objective 2"). */
const itemNames: Record<string, string> = {
  steps: 'Step',
  objectives: 'Objective',
  prerequisites: 'Prerequisite',
  misconceptions: 'Misconception',
  questions: 'Question',
  acceptedAnswers: 'Accepted answer',
};

/** `plan.steps.2.questions.0.expectedAnswer` → `Step 3 › Question 1 › Expected answer` (lists are counted from 1). */
export function describePlanField(field: string): string {
  // The body's root (`body`) and the plan itself (`plan`) say nothing an author needs.
  const parts = field.split('.');
  while (parts[0] === 'body' || parts[0] === 'plan') parts.shift();
  if (parts.length === 0) return field === 'body' ? 'Request' : 'Plan';
  const labels: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const next = parts[index + 1];
    if (itemNames[part] && next !== undefined && /^\d+$/.test(next)) {
      labels.push(`${itemNames[part]} ${Number(next) + 1}`);
      index += 1;
    } else {
      labels.push(fieldNames[part] ?? part);
    }
  }
  return labels.join(' › ');
}

/**
 * The server's 400 message (`field: message` joined by "; ", maybe ending in "; and 3 more")
 * as one problem per field. A message that names no field is kept whole.
 */
export function parsePlanProblems(message: string): PlanProblem[] {
  const pieces = message.split('; ');
  const problems: PlanProblem[] = [];
  for (const piece of pieces) {
    const field = fieldStart.exec(piece);
    const more = moreStart.exec(piece);
    const last = problems[problems.length - 1];
    if (field) {
      problems.push(problem(field[1]!, piece.slice(field[0].length)));
    } else if (more) {
      problems.push({ field: null, label: null, message: `…and ${more[1]} more problems`, line: null });
    } else if (last) {
      // A "; " inside one problem's own message ("is missing; write it on an A: line").
      const joined = `${last.message}${last.line === null ? '' : ` (line ${last.line})`}; ${piece}`;
      problems[problems.length - 1] = last.field ? problem(last.field, joined) : { ...last, message: joined };
    } else {
      problems.push({ field: null, label: null, message: piece, line: null });
    }
  }
  return problems.filter((entry) => entry.message.trim().length > 0);
}

function problem(field: string, text: string): PlanProblem {
  const line = lineSuffix.exec(text);
  return {
    field,
    label: describePlanField(field),
    message: line ? text.slice(0, line.index) : text,
    line: line ? Number(line[1]) : null,
  };
}

/** The offset in `text` where 1-based line `line` starts (the end of the text past the last line). */
export function lineOffset(text: string, line: number): { start: number; end: number } {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return { start: text.length, end: text.length };
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return { start, end: end < 0 ? text.length : end };
}

// ---------------------------------------------------------------------------
// Plans and formats
// ---------------------------------------------------------------------------

export type PlanFormat = 'json' | 'markdown';

/** The format of an uploaded file, from its name; null for anything else. */
export function formatOfFile(name: string): PlanFormat | null {
  if (/\.json$/i.test(name)) return 'json';
  if (/\.(md|markdown)$/i.test(name)) return 'markdown';
  return null;
}

export interface PlanBadge {
  key: 'built-in' | 'yours' | 'shared';
  label: string;
  title: string;
}

/** Where a plan comes from, as badges: built in, yours, shared (with you, or by you). */
export function planBadges(plan: Pick<StudyPlanSummary, 'builtIn' | 'owned' | 'shared'>): PlanBadge[] {
  const badges: PlanBadge[] = [];
  if (plan.builtIn) badges.push({ key: 'built-in', label: 'Built-in', title: 'Ships with tutorloop; anyone can use it.' });
  if (plan.owned) badges.push({ key: 'yours', label: 'Yours', title: 'You wrote this plan: you can edit or delete it.' });
  if (plan.shared && !plan.builtIn) {
    badges.push(
      plan.owned
        ? { key: 'shared', label: 'Shared', title: 'Every learner on this server can use it (but not change it).' }
        : { key: 'shared', label: 'Shared', title: 'Shared by another learner: you can use it, not change it.' },
    );
  }
  return badges;
}

// ---------------------------------------------------------------------------
// Steps and mastery
// ---------------------------------------------------------------------------

export const stepTypeLabels: Record<StudyPlanStepType, string> = {
  explain: 'Explain',
  check: 'Check',
  practice: 'Practice',
};

export const stepStatusLabels: Record<LearningProgress['steps'][number]['status'], string> = {
  done: 'Done',
  current: 'Current step',
  upcoming: 'Upcoming',
};

export const masteryLabels: Record<MasteryLevel, string> = {
  not_started: 'Not started',
  learning: 'Learning',
  developing: 'Developing',
  mastered: 'Mastered',
};

/** How many of the three bars a level fills, so the level shows as a shape and as text. */
export const masteryBars: Record<MasteryLevel, number> = {
  not_started: 0,
  learning: 1,
  developing: 2,
  mastered: 3,
};

/** "Step 3 of 8", or "Plan complete" once every step is done (and in the extension). */
export function stepLabel(progress: Pick<LearningProgress, 'step' | 'totalSteps' | 'steps' | 'extension'>): string {
  if (progress.extension || (progress.steps.length > 0 && progress.steps.every((step) => step.status === 'done'))) {
    return progress.extension ? 'Plan complete · extra practice' : 'Plan complete';
  }
  return `Step ${progress.step} of ${progress.totalSteps}`;
}

/** Share of the plan's steps done, 0–1. */
export function stepRatio(progress: Pick<LearningProgress, 'totalSteps' | 'steps'>): number {
  if (progress.totalSteps <= 0) return 0;
  return progress.steps.filter((step) => step.status === 'done').length / progress.totalSteps;
}

/** A learning session in a list: "In progress · 3 of 8 steps done". */
export function learningSessionLabel(session: Pick<SessionListItem, 'status' | 'recalledCount' | 'totalPoints'>): string {
  const steps = `${session.recalledCount} of ${session.totalPoints} ${session.totalPoints === 1 ? 'step' : 'steps'} done`;
  switch (session.status) {
    case 'completed':
      return session.recalledCount >= session.totalPoints ? `Completed · all ${session.totalPoints} steps` : `Ended · ${steps}`;
    case 'abandoned':
      return `Ended early · ${steps}`;
    case 'pending':
    case 'active':
    case 'awaiting_client_action':
      return `In progress · ${steps}`;
    default: {
      const unreachable: never = session.status;
      throw new Error(`Unhandled status ${String(unreachable)}`);
    }
  }
}

// ---------------------------------------------------------------------------
// Starter plans for the editor
// ---------------------------------------------------------------------------

/** A small valid plan in each format, for a new plan's editor (practice uses a shipped skill blueprint). */
export const planTemplates: Record<PlanFormat, string> = {
  json: `${JSON.stringify(
    {
      title: 'Two-digit addition',
      topic: 'Adding two-digit numbers in columns',
      audience: 'Grade 2',
      objectives: ['Add two two-digit numbers, carrying a ten when needed'],
      prerequisites: ['Addition facts up to 20'],
      misconceptions: [{ concept: 'carrying', description: 'Forgets to add the carried ten to the tens column' }],
      teachingApproach: 'Concrete before written: tens as bundles of ten ones, then the column method.',
      allowExtension: false,
      allowBacktrack: true,
      steps: [
        {
          number: 1,
          type: 'explain',
          concept: 'carrying',
          contentHint: 'Add the ones first. If they make 10 or more, write the ones digit and carry the ten to the tens column.',
        },
        {
          number: 2,
          type: 'check',
          concept: 'carrying',
          contentHint: 'Ask for the sum; praise the method as well as the answer.',
          questions: [{ question: 'What is 38 + 45?', expectedAnswer: '83', acceptedAnswers: ['eighty-three'] }],
        },
        {
          number: 3,
          type: 'practice',
          concept: 'carrying',
          contentHint: 'Have the learner say whether the ones need a carry before adding the tens.',
          skillBlueprintId: 'MATH.ARITH.ADD.2DIGIT',
          items: 1,
        },
      ],
    },
    null,
    2,
  )}\n`,
  markdown: `---
title: Two-digit addition
topic: Adding two-digit numbers in columns
audience: Grade 2
objectives:
  - Add two two-digit numbers, carrying a ten when needed
prerequisites:
  - Addition facts up to 20
misconceptions:
  - concept: carrying
    description: Forgets to add the carried ten to the tens column
teachingApproach: Concrete before written — tens as bundles of ten ones, then the column method.
allowBacktrack: true
---

## 1. explain: carrying

Add the ones first. If they make 10 or more, write the ones digit and carry the ten to the
tens column.

## 2. check: carrying

- Q: What is 38 + 45?
  A: 83
  Also: eighty-three

## 3. practice: carrying

blueprint: MATH.ARITH.ADD.2DIGIT
items: 1

Have the learner say whether the ones need a carry before adding the tens.
`,
};
