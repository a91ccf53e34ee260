/**
 * Session types are dispatched through their registries (issue 23): a session type is compared
 * by name only in its own folder (`server/src/core/<folder>/`, found by the module it declares;
 * `web/src/sessions/<type>/`) or in a registry. Everywhere else a reader looks the type up in
 * the registry (`moduleOf`, `sessionRegistry`), reads what the type's own part says, or takes
 * the sessions of a type by lookup (`sessionsOfType`), so a new type is listed by the type
 * checker instead of falling through an `if`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionType } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const roots = ['shared/src', 'server/src', 'web/src', 'eval/src'];
/** The registries, and the eval's table of what a case opens for each type (its own registry of subjects). */
const registries = ['shared/src/session.ts', 'server/src/core/session-modules.ts', 'server/src/core/session-type-states.ts', 'web/src/sessions/registry.ts', 'eval/src/suites/suite-schema.ts'];

const typeNames = SessionType.options.join('|');
const typeComparisons = [
  new RegExp(`\\btype\\s*[!=]==?\\s*['"](${typeNames})['"]`, 'g'),
  new RegExp(`['"](${typeNames})['"]\\s*[!=]==?\\s*(?:[\\w$]+\\??\\.)*type\\b`, 'g'),
];

function sourceFiles(root: string): string[] {
  return readdirSync(path.join(repo, root), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(repo, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Each type's own folders: the server folder whose module is `SessionModule<'type'>`, and the web's `sessions/<type>/`. */
function ownFolders(files: readonly string[]): Map<string, string[]> {
  const owners = new Map<string, string[]>(SessionType.options.map((type) => [type, [`web/src/sessions/${type}/`]]));
  for (const file of files.filter((name) => name.startsWith('server/src/core/'))) {
    for (const match of readFileSync(path.join(repo, file), 'utf8').matchAll(/SessionModule<'(\w+)'>/g)) {
      owners.get(match[1]!)?.push(`${path.posix.dirname(file)}/`);
    }
  }
  return owners;
}

interface Finding {
  file: string;
  line: number;
  text: string;
}

function findingsIn(file: string, text: string, owners: Map<string, string[]>): Finding[] {
  if (registries.includes(file)) return [];
  return text.split('\n').flatMap((source, index) => {
    const trimmed = source.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return [];
    return typeComparisons
      .flatMap((pattern) => [...source.matchAll(pattern)])
      .filter((match) => !(owners.get(match[1]!) ?? []).some((folder) => file.startsWith(folder)))
      .map((match) => ({ file, line: index + 1, text: match[0] }));
  });
}

describe('session types boundary (issue 23)', () => {
  const files = roots.flatMap(sourceFiles);
  const owners = ownFolders(files);

  it('knows where each type lives, and catches the comparisons it exists to stop', () => {
    for (const type of SessionType.options) expect(owners.get(type)!.length, type).toBeGreaterThan(1);
    expect(owners.get('recall')).toContain('server/src/core/recall/');
    const caught = [
      "  if (session.type === 'learning') return plan;",
      "  const shown = sessions.filter((item) => item.type !== 'assessment');",
      "  if ('survey' === state.type) return null;",
      "  return session.typeState.type === 'recall' ? mode : 'recall';",
    ];
    expect(caught.map((line) => findingsIn('server/src/services/example.ts', line, owners).length)).toEqual([1, 1, 1, 1]);
    const allowed = ["  const learning = sessionsOfType(sessions, 'learning');", " * A comment may say `type === 'recall'`.", "  case 'thought':", "  if (mode === 'recall') return;"];
    expect(allowed.flatMap((line) => findingsIn('server/src/services/example.ts', line, owners))).toEqual([]);
    expect(findingsIn('server/src/core/recall/example.ts', "if (session.type === 'recall') return;", owners)).toEqual([]);
    expect(findingsIn('web/src/sessions/survey/example.ts', "if (session.type === 'survey') return;", owners)).toEqual([]);
    expect(findingsIn('web/src/sessions/survey/example.ts', "if (session.type === 'recall') return;", owners)).toHaveLength(1);
  });

  it('finds no session type compared by name outside its own folders and the registries', () => {
    expect(files).toContain('web/src/sessions/registry.ts');
    expect(files).toContain('eval/src/runner/case-runner.ts');
    const findings = files.flatMap((file) => findingsIn(file, readFileSync(path.join(repo, file), 'utf8'), owners));
    expect(findings).toEqual([]);
  });
});
