/**
 * Widgets are keyed by kind end to end (issue 23 item 3, ARCHITECTURE "How to add a widget
 * kind"): an answer is read by pairing it with its widget's kind (`answerForKind`, or
 * `kindOfAnswer` for a stored one) and switching on that kind, never by probing its fields
 * (`'selectedIndex' in answer`); and a widget kind is compared by name only where kinds are
 * defined — the shared table, the web's widget folder, the server's widget guard, answer checks
 * and tool registry. Anywhere else a reader switches on the kind (ending in a `never` check) or
 * looks it up in a `Record<WidgetKind, …>`, so a new kind is listed by the type checker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { widgetKinds, widgetSchemas } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const roots = ['shared/src', 'server/src', 'web/src'];

/** Where widget kinds are defined, and so may be named in a comparison. */
const kindOwners = ['shared/src/widgets.ts', 'web/src/widgets/', 'server/src/core/session/widget-guard.ts', 'server/src/core/session/widget-answers.ts', 'server/src/llm/tutor-tools.ts'];

/**
 * Other unions whose kinds reuse a widget kind's name, compared in the folder that owns them:
 * an assessment item's or problem's kind (`multiple_choice` | `code`), a survey question's kind.
 */
const otherKinds: ReadonlyArray<{ path: string; receiver: RegExp }> = [
  { path: 'server/src/core/assessment/', receiver: /^(item|problem)$/ },
  { path: 'shared/src/survey.ts', receiver: /^question$/ },
];

/** Every field some kind's answer has (`selectedIndex`, `text`, …), read from the table. */
const answerFields = [...new Set(widgetKinds.flatMap((kind) => Object.keys(widgetSchemas[kind].response.shape)))];

const kindNames = widgetKinds.join('|');
const kindComparisons = [
  new RegExp(`(?:([\\w$]+)\\??\\.)?\\bkind\\s*[!=]==?\\s*['"](?:${kindNames})['"]`, 'g'),
  new RegExp(`['"](?:${kindNames})['"]\\s*[!=]==?\\s*(?:([\\w$]+)\\??\\.)?kind\\b`, 'g'),
];
/** `'text' in response`, `'code' in last.widgetAnswer.response`: a probe of an answer field on an answer. */
const answerProbe = new RegExp(`['"](?:${answerFields.join('|')})['"]\\s+in\\s+([\\w$.?]+)`, 'g');

interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The rule's findings in one file's text (comments skipped). */
function findingsIn(file: string, text: string): Finding[] {
  const kindsAllowed = kindOwners.some((owner) => file === owner || (owner.endsWith('/') && file.startsWith(owner)));
  return text.split('\n').flatMap((source, index) => {
    const trimmed = source.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return [];
    const found: string[] = [];
    if (!kindsAllowed) {
      for (const pattern of kindComparisons) {
        for (const match of source.matchAll(pattern)) {
          const receiver = match[1] ?? '';
          if (!otherKinds.some((other) => file.startsWith(other.path) && other.receiver.test(receiver))) found.push(match[0]);
        }
      }
    }
    if (file !== 'shared/src/widgets.ts') {
      for (const match of source.matchAll(answerProbe)) {
        if (/answer|response/i.test(match[1] ?? '')) found.push(match[0]);
      }
    }
    return found.map((what) => ({ file, line: index + 1, text: what }));
  });
}

function sourceFiles(root: string): string[] {
  return readdirSync(path.join(repo, root), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('widget kinds boundary (issue 23 item 3)', () => {
  it('catches the probes and comparisons it exists to stop, and lets switches and the registry through', () => {
    const caught = [
      "  if ('selectedIndex' in response) return scoreChoice(item, response.selectedIndex);",
      "  if (!('code' in last.widgetAnswer.response)) return null;",
      "    if (response.answer && 'value' in response.answer) counts += 1;",
      "    if (action?.kind === 'multiple_choice') return RecallEvidences.recognition;",
      "  const shown = 'rating' !== widget.kind;",
    ];
    expect(caught.map((line) => findingsIn('server/src/core/example.ts', line).length)).toEqual([1, 1, 1, 1, 1]);
    const allowed = [
      "    case 'multiple_choice':",
      "  const picked = answerForKind('code_editor', response);",
      "  if ('equals' in when) return rated.answer.value === when.equals;",
      " * A comment may say `kind === 'rating'`.",
    ];
    expect(allowed.flatMap((line) => findingsIn('server/src/core/example.ts', line))).toEqual([]);
    expect(findingsIn('web/src/widgets/example.tsx', "if (widget.kind === 'rating') return null;")).toEqual([]);
    expect(findingsIn('server/src/core/assessment/example.ts', "if (problem.kind === 'multiple_choice') return;")).toEqual([]);
    expect(findingsIn('server/src/core/survey/example.ts', "if (question.kind === 'rating') return;")).toHaveLength(1);
  });

  it('finds no answer probed by its fields and no widget kind compared by name outside where kinds are defined', () => {
    const files = roots.flatMap(sourceFiles);
    expect(files).toContain('shared/src/widgets.ts');
    expect(files).toContain('web/src/widgets/widget-view.tsx');
    const findings = files.flatMap((file) => findingsIn(file, readFileSync(path.join(repo, file), 'utf8')));
    expect(findings).toEqual([]);
  });
});
