/**
 * Seed 001, criteria 7–10: evaluation is continuous, so no manual trigger of any kind exists —
 * no trigger phrases, no `trigger_eval` message, no "I've got it" button, no per-point message
 * caps or evaluate-after settings. The protocol refuses such a message, and no source file of
 * the product mentions them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '@tutorloop/shared';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const thisFile = fileURLToPath(import.meta.url);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|json)$/.test(name) && full !== thisFile ? [full] : [];
  });
}

describe('no manual evaluation trigger', () => {
  it('the protocol has no trigger_eval message', () => {
    const parsed = parseClientMessage(JSON.stringify({ type: 'trigger_eval', payload: {} }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('unknown_type');
  });

  it('no product source mentions trigger phrases, trigger_eval, an "I’ve got it" button or evaluation caps', () => {
    const forbidden = [/EVALUATION_TRIGGER_PHRASES/, /trigger_?eval/i, /I['’]ve got it/i, /autoEvaluateAfter/, /maxMessagesPerPoint/, /shouldTriggerEvaluation/];
    const files = ['shared/src', 'server/src', 'web/src'].flatMap((dir) => sourceFiles(path.join(root, dir)));
    expect(files.length).toBeGreaterThan(50);
    const hits = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return forbidden.filter((pattern) => pattern.test(text)).map((pattern) => `${path.relative(root, file)}: ${pattern}`);
    });
    expect(hits).toEqual([]);
  });
});
