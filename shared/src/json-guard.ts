/**
 * Safe reading of JSON text that comes from a client (SPEC §8): nesting is bounded before
 * anything recurses over the value, and every string is made well-formed (lone UTF-16
 * surrogates become U+FFFD) so that what is stored round-trips as valid UTF-8.
 */

/** Deepest nesting of arrays and objects accepted in a client's JSON (frames and bodies). */
export const maxJsonDepth = 32;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The string with every lone surrogate replaced by U+FFFD (what `String#toWellFormed` does). */
export function toWellFormed(text: string): string {
  return text.replace(loneSurrogate, '\ufffd');
}

/**
 * The deepest nesting of `[`/`{` in JSON text, scanning at most until `limit` is passed.
 * Iterative and linear, so it is safe on text of any shape, valid JSON or not.
 */
export function jsonNestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return deepest;
}

export type SafeJsonResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { reason: 'invalid_json' | 'too_deep'; message: string } };

function wellFormedReviver(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? toWellFormed(value) : value;
}

/**
 * Parses client JSON: refuses nesting deeper than `maxDepth` before parsing, and returns
 * every string well-formed. Never throws.
 */
export function parseClientJson(text: string, maxDepth = maxJsonDepth): SafeJsonResult {
  if (jsonNestingDepth(text, maxDepth) > maxDepth) {
    return { ok: false, error: { reason: 'too_deep', message: `JSON nests deeper than ${maxDepth} levels.` } };
  }
  try {
    return { ok: true, value: JSON.parse(text, wellFormedReviver) };
  } catch {
    return { ok: false, error: { reason: 'invalid_json', message: 'Not valid JSON.' } };
  }
}

/** A short, safe description of an unvalidated value for an error message: never recurses. */
export function describeUnknownValue(value: unknown, maxLength = 40): string {
  if (typeof value === 'string') {
    const shown = value.length > maxLength ? `${value.slice(0, maxLength)}…` : value;
    return JSON.stringify(toWellFormed(shown));
  }
  if (value === null || value === undefined) return String(value ?? null);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}
