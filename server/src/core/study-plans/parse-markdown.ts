/**
 * Study plans written in Markdown (SPEC §4.4: "JSON, or Markdown with front matter"). The
 * format (documented in server/study-plans/README.md):
 *
 *     ---
 *     title: IPv4 subnetting            ← the plan's fields, in YAML
 *     topic: …
 *     objectives:
 *       - …
 *     ---
 *
 *     ## 1. explain: binary octets      ← one section per step: "## N. type: concept"
 *
 *     The content hint: what to teach.  ← the section's text
 *
 *     ## 2. check: binary octets
 *
 *     - Q: What is 11000000 in decimal?
 *       A: 192
 *       Also: 192.0; one hundred ninety-two
 *
 *     ## 3. practice: network address
 *
 *     blueprint: NET.IPV4.SUBNET.NETWORK
 *     items: 2
 *
 * Every problem comes back as `field: message (line N)`, the field a path into the plan as
 * in JSON (steps counted from 0), the line the file's. Pure: text in, plan or error out.
 */
import { StudyPlanContent } from '@tutorloop/shared';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { checkSkillBlueprints, formatIssues, issuesFromZod, type PlanIssue, type SkillBlueprintIds } from './validate-plan';

export type MarkdownPlanResult = { ok: true; value: StudyPlanContent } | { ok: false; error: string };

/** A problem found while reading the file's structure, with its line. */
interface LocatedIssue extends PlanIssue {
  line: number;
}

interface QuestionDraft {
  line: number;
  question: string;
  answer: string | undefined;
  answerLine: number | undefined;
  /** The "Also:" text, split into variants at the end. */
  also: string;
  alsoLine: number | undefined;
  /** Where an indented continuation line goes. */
  last: 'question' | 'answer' | 'also';
}

interface StepDraft {
  line: number;
  number: number | undefined;
  type: string | undefined;
  concept: string;
  hint: string[];
  hintLine: number | undefined;
  blueprint: { value: string; line: number } | undefined;
  items: { value: number | string; line: number } | undefined;
  questions: QuestionDraft[];
}

// A value after `\s*` starts with `\S`: as `\s*(.*)$` the two traded the spaces of a long run
// and backtracked quadratically (issue 22), while matching the same lines.
const stepHeading = /^(\d+)\s*[.)]\s*([A-Za-z_-]+)\s*:\s*((?:\S.*)?)$/;
const questionStart = /^[-*+]\s+Q\s*:\s*((?:\S.*)?)$/i;
const answerLine = /^(?:[-*+]\s+)?(A|Also)\s*:\s*((?:\S.*)?)$/i;
const practiceKey = /^(blueprint|items)\s*:\s*((?:\S.*)?)$/i;
const fenceLine = /^(```|~~~)/;
const headingFormat = '"## N. explain|check|practice: concept"';
/** `StudyPlanContent`'s limit on steps. */
const maxSteps = 60;

/** Reads a Markdown study plan and validates it (schema and skill blueprints). */
export function parseStudyPlanMarkdown(text: string, skillIds: SkillBlueprintIds): MarkdownPlanResult {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const fail = (issues: LocatedIssue[]): MarkdownPlanResult => ({ ok: false, error: formatIssues(issues) });

  // Front matter: "---", YAML, "---" (or "...").
  if (lines[0]?.trim() !== '---') {
    return fail([{ path: [], message: 'a Markdown plan starts with front matter: a "---" line, the plan’s fields in YAML, then a closing "---"', line: 1 }]);
  }
  const close = lines.findIndex((line, index) => index > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (close < 0) return fail([{ path: [], message: 'the front matter has no closing "---" line', line: 1 }]);
  const frontText = lines.slice(1, close).join('\n');
  const shape = frontMatterProblem(frontText);
  if (shape) return fail([{ path: ['front matter'], message: shape, line: 2 }]);
  const lineCounter = new LineCounter();
  const document = parseDocument(frontText, { lineCounter });
  if (document.errors.length > 0) {
    return fail(
      document.errors.map((error) => ({
        path: ['front matter'],
        message: (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, ''),
        line: (error.linePos?.[0].line ?? 0) + 1,
      })),
    );
  }
  let front: unknown;
  try {
    // toJS throws on what parsing lets through, such as too many aliases (a "billion laughs" document).
    front = document.toJS();
  } catch (error) {
    return fail([{ path: ['front matter'], message: error instanceof Error ? error.message : String(error), line: 2 }]);
  }
  if (front !== null && front !== undefined && (typeof front !== 'object' || Array.isArray(front))) {
    return fail([{ path: ['front matter'], message: 'must be the plan’s fields as YAML ("title: …", "topic: …")', line: 2 }]);
  }
  const fields: Record<string, unknown> = { ...((front ?? {}) as Record<string, unknown>) };
  const structural: LocatedIssue[] = [];
  if ('steps' in fields) {
    structural.push({ path: ['steps'], message: `write steps as ${headingFormat} sections after the front matter, not in it`, line: frontLine(document, lineCounter, ['steps']) });
  }
  // A misconception may be written as a plain string: its description.
  if (Array.isArray(fields.misconceptions)) {
    fields.misconceptions = fields.misconceptions.map((entry: unknown) => (typeof entry === 'string' ? { description: entry } : entry));
  }

  // The body: an optional "# Title", then one "## N. type: concept" section per step.
  const steps: StepDraft[] = [];
  let title: string | undefined;
  let question: QuestionDraft | null = null;
  let inFence = false;
  let strayReported = false;
  for (let index = close + 1; index < lines.length; index += 1) {
    const raw = lines[index]!;
    const lineNumber = index + 1;
    const trimmed = raw.trim();
    const step = steps.at(-1);
    if (inFence || fenceLine.test(trimmed)) {
      if (fenceLine.test(trimmed)) inFence = !inFence;
      question = null;
      if (step) addHint(step, raw, lineNumber);
      else if (!strayReported) {
        strayReported = true;
        structural.push({ path: ['steps'], message: `text before the first step; a step starts with ${headingFormat}`, line: lineNumber });
      }
      continue;
    }
    const heading = /^##(?!#)\s*((?:\S.*)?)$/.exec(trimmed);
    if (heading) {
      question = null;
      if (steps.length === maxSteps) {
        // The schema's limit, checked here so a huge file is not read any further.
        structural.push({ path: ['steps'], message: `a plan has at most ${maxSteps} steps`, line: lineNumber });
        break;
      }
      steps.push(readHeading(heading[1]!, lineNumber, steps.length, structural));
      continue;
    }
    if (!step) {
      const h1 = /^#(?!#)\s*((?:\S.*)?)$/.exec(trimmed);
      if (h1) title ??= h1[1]!.trim();
      else if (trimmed !== '' && !/^<!--.*-->$/.test(trimmed) && !strayReported) {
        strayReported = true;
        structural.push({ path: ['steps'], message: `text before the first step; a step starts with ${headingFormat}`, line: lineNumber });
      }
      continue;
    }
    const at = steps.length - 1;
    const qStart = questionStart.exec(trimmed);
    if (qStart) {
      if (step.type !== 'check') {
        structural.push({ path: ['steps', at, 'questions'], message: 'only check steps have questions ("- Q:" items)', line: lineNumber });
        question = null;
        continue;
      }
      question = { line: lineNumber, question: qStart[1]!.trim(), answer: undefined, answerLine: undefined, also: '', alsoLine: undefined, last: 'question' };
      step.questions.push(question);
      continue;
    }
    if (question && trimmed !== '' && (/^\s/.test(raw) || answerLine.test(trimmed))) {
      readQuestionLine(question, trimmed, lineNumber, ['steps', at, 'questions', step.questions.length - 1], structural);
      continue;
    }
    if (trimmed !== '') question = null;
    const key = question === null && !/^\s/.test(raw) ? practiceKey.exec(trimmed) : null;
    if (key && (step.type === 'practice' || key[1]!.toLowerCase() === 'blueprint')) {
      readPracticeKey(step, key[1]!.toLowerCase() as 'blueprint' | 'items', key[2]!.trim(), lineNumber, at, structural);
      continue;
    }
    addHint(step, raw, lineNumber);
  }

  const draft: Record<string, unknown> = {
    ...fields,
    ...(fields.title === undefined && title ? { title } : {}),
    steps: steps.map((step, index) => toRawStep(step, index, structural)),
  };
  const lineOf = lineFinder(steps, document, lineCounter, close + 2 <= lines.length ? close + 2 : close + 1);
  const parsed = StudyPlanContent.safeParse(draft);
  const found = parsed.success ? checkSkillBlueprints(parsed.data, skillIds) : issuesFromZod(parsed.error);
  // What the structure already reported about a step (a bad heading, a missing answer) is not reported again by the schema.
  const reportedPaths = new Set(structural.filter((issue) => issue.path.length > 1).map((issue) => issue.path.join('.')));
  const reported = (path: ReadonlyArray<string | number>) => path.some((_, index) => reportedPaths.has(path.slice(0, index + 1).join('.')));
  const issues: LocatedIssue[] = [...structural, ...found.filter((issue) => !reported(issue.path)).map((issue) => ({ ...issue, line: lineOf(issue.path) }))];
  if (!parsed.success || issues.length > 0) return fail(issues.sort((left, right) => left.line - right.line));
  return { ok: true, value: parsed.data };
}

function readHeading(text: string, line: number, index: number, issues: LocatedIssue[]): StepDraft {
  const step: StepDraft = { line, number: undefined, type: undefined, concept: '', hint: [], hintLine: undefined, blueprint: undefined, items: undefined, questions: [] };
  const match = stepHeading.exec(text.trim());
  if (!match) {
    issues.push({ path: ['steps', index], message: `a step heading reads ${headingFormat}, not "## ${text.trim().slice(0, 60)}"`, line });
    return step;
  }
  step.number = Number(match[1]);
  step.type = match[2]!.toLowerCase();
  step.concept = match[3]!.trim();
  return step;
}

function readQuestionLine(question: QuestionDraft, trimmed: string, line: number, path: Array<string | number>, issues: LocatedIssue[]): void {
  const labelled = answerLine.exec(trimmed);
  if (!labelled) {
    // An indented line continues whatever was written last.
    if (question.last === 'question') question.question = `${question.question} ${trimmed}`.trim();
    else if (question.last === 'answer') question.answer = `${question.answer ?? ''} ${trimmed}`.trim();
    else question.also = `${question.also} ${trimmed}`.trim();
    return;
  }
  const value = labelled[2]!.trim();
  if (labelled[1]!.toLowerCase() === 'a') {
    if (question.answer !== undefined) {
      issues.push({ path: [...path, 'expectedAnswer'], message: 'given twice; write other accepted answers on an "Also:" line', line });
      return;
    }
    question.answer = value;
    question.answerLine = line;
    question.last = 'answer';
    return;
  }
  // Several "Also:" lines add up.
  question.also = question.also === '' ? value : `${question.also}; ${value}`;
  question.alsoLine ??= line;
  question.last = 'also';
}

/** "Also: 0.5; 1/2" — variants are separated by semicolons (answers may hold commas and slashes). */
function splitVariants(text: string): string[] {
  return text
    .split(';')
    .map((variant) => variant.trim())
    .filter((variant) => variant !== '');
}

function readPracticeKey(step: StepDraft, key: 'blueprint' | 'items', value: string, line: number, at: number, issues: LocatedIssue[]): void {
  if (step.type !== 'practice') {
    issues.push({ path: ['steps', at, 'skillBlueprintId'], message: 'only practice steps name a skill blueprint', line });
    return;
  }
  if ((key === 'blueprint' ? step.blueprint : step.items) !== undefined) {
    issues.push({ path: ['steps', at, key === 'blueprint' ? 'skillBlueprintId' : 'items'], message: `"${key}:" is given twice`, line });
    return;
  }
  if (key === 'blueprint') step.blueprint = { value, line };
  // A number when it reads as one; otherwise the schema says what is wrong with it.
  else step.items = { value: /^\d+$/.test(value) ? Number(value) : value, line };
}

function addHint(step: StepDraft, raw: string, line: number): void {
  if (raw.trim() !== '') step.hintLine ??= line;
  // trimEnd, not /\s+$/: that retried from every space of a long run (issue 22).
  step.hint.push(raw.trimEnd());
}

function toRawStep(step: StepDraft, index: number, issues: LocatedIssue[]): Record<string, unknown> {
  const raw: Record<string, unknown> = { number: step.number, type: step.type, concept: step.concept, contentHint: unwrap(step.hint) };
  if (step.type === 'check') {
    raw.questions = step.questions.map((question, position) => {
      if (question.answer === undefined) {
        issues.push({ path: ['steps', index, 'questions', position, 'expectedAnswer'], message: 'is missing; write it on an "A:" line under the question', line: question.line });
      }
      return { question: question.question, ...(question.answer === undefined ? {} : { expectedAnswer: question.answer }), acceptedAnswers: splitVariants(question.also) };
    });
  }
  if (step.type === 'practice') {
    if (step.blueprint) raw.skillBlueprintId = step.blueprint.value;
    else issues.push({ path: ['steps', index, 'skillBlueprintId'], message: 'is missing; add a "blueprint: <skill blueprint id>" line to the step', line: step.line });
    if (step.items) raw.items = step.items.value;
  }
  return raw;
}

/**
 * The section's text as the content hint: hard-wrapped lines of a paragraph joined into one
 * (the tutor quotes hints in chat), paragraphs, list items and fenced code kept apart.
 */
function unwrap(lines: readonly string[]): string {
  const out: string[] = [];
  let joinable = false;
  let inFence = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (fenceLine.test(trimmed) || inFence) {
      if (fenceLine.test(trimmed)) inFence = !inFence;
      out.push(line);
      joinable = false;
      continue;
    }
    if (trimmed === '') {
      if (out.length > 0 && out.at(-1) !== '') out.push('');
      joinable = false;
      continue;
    }
    const startsBlock = /^([-*+]\s|\d+[.)]\s|#|>|\|)/.test(trimmed);
    if (joinable && !startsBlock) out[out.length - 1] = `${out.at(-1)} ${trimmed}`;
    // List items keep their indentation (nesting); other lines start at the margin.
    else out.push(/^([-*+]\s|\d+[.)]\s)/.test(trimmed) ? line : trimmed);
    joinable = !/^(#|\|)/.test(trimmed);
  }
  return out.join('\n').trim();
}

/** The line of a path: its step part from the sections, the rest from the front matter. */
function lineFinder(steps: readonly StepDraft[], document: Document, lineCounter: LineCounter, bodyLine: number): (path: ReadonlyArray<string | number>) => number {
  return (path) => {
    if (path[0] !== 'steps') return frontLine(document, lineCounter, path);
    const step = typeof path[1] === 'number' ? steps[path[1]] : undefined;
    if (!step) return bodyLine;
    const field = path[2];
    if (field === 'contentHint') return step.hintLine ?? step.line;
    if (field === 'skillBlueprintId') return step.blueprint?.line ?? step.line;
    if (field === 'items') return step.items?.line ?? step.line;
    if (field === 'questions') {
      const question = typeof path[3] === 'number' ? step.questions[path[3]] : undefined;
      if (!question) return step.questions[0]?.line ?? step.line;
      if (path[4] === 'expectedAnswer') return question.answerLine ?? question.line;
      if (path[4] === 'acceptedAnswers') return question.alsoLine ?? question.line;
      return question.line;
    }
    return step.line;
  };
}

/** The file line of a front matter value (its nearest existing parent when it is missing; line 1 for the plan itself). */
function frontLine(document: Document, lineCounter: LineCounter, path: ReadonlyArray<string | number>): number {
  for (let length = path.length; length > 0; length -= 1) {
    const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return lineCounter.linePos(node.range[0]).line + 1;
  }
  return 1;
}

/** The longest front matter read: a plan's fields are a title, a topic and a few short lists. */
export const frontMatterMaxChars = 16_384;
/** The deepest nesting a plan's fields use is two (a list of objects); anything far past it is refused before parsing. */
const frontMatterMaxDepth = 12;
const frontMatterMaxIndent = 48;

/**
 * Why a front matter is refused before the YAML parser sees it, or null. The parser's time and
 * memory grow badly with nesting ("[" × 100,000 took 5 s; "- " × 20,000 ended the process out of
 * memory), so size, flow-bracket depth, compact "- - -" runs and indentation are bounded
 * first, in one linear pass (issue 22: no input stalls the server).
 */
export function frontMatterProblem(text: string): string | null {
  if (text.length > frontMatterMaxChars) {
    return `is longer than ${frontMatterMaxChars.toLocaleString('en')} characters — a plan’s fields are short; the explanations go in the steps below it`;
  }
  let depth = 0;
  let deepest = 0;
  let quote: string | null = null;
  let lineStart = true;
  let indent = 0;
  let dashes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === '\n') {
      lineStart = true;
      indent = 0;
      dashes = 0;
      quote = null;
      continue;
    }
    if (lineStart) {
      if (character === ' ') {
        indent += 1;
        if (indent > frontMatterMaxIndent) return `is indented more than ${frontMatterMaxIndent} spaces — a plan’s fields never nest that deep`;
        continue;
      }
      if (character === '-' && (text[index + 1] === ' ' || text[index + 1] === '-')) {
        dashes += text[index + 1] === ' ' ? 1 : 0;
        if (dashes > frontMatterMaxDepth) return `nests lists more than ${frontMatterMaxDepth} deep — a plan’s fields never do`;
        continue;
      }
      if (character === ' ') continue;
      lineStart = false;
    }
    if (quote) {
      if (character === quote) quote = null;
      continue;
    }
    if (character === '"' || character === "'") quote = character;
    else if (character === '[' || character === '{') {
      depth += 1;
      deepest = Math.max(deepest, depth);
      if (deepest > frontMatterMaxDepth) return `nests brackets more than ${frontMatterMaxDepth} deep — a plan’s fields never do`;
    } else if (character === ']' || character === '}') depth = Math.max(0, depth - 1);
    else if (character === '#') {
      // A comment runs to the end of its line.
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end - 1;
    }
  }
  return null;
}
