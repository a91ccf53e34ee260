/**
 * An expected failure of reading a learner's archive, its message in plain words. Thrown only
 * where a callback stands between the check and the caller (a decompressor's output handler, a
 * row loop) and turned back into `{ ok: false, error }` at the edge of the module that threw it.
 */
export class Refusal extends Error {}

/** `{ ok: false, error }` for a refusal; anything else is a bug and is thrown on. */
export function refused(error: unknown): { ok: false; error: string } {
  if (error instanceof Refusal) return { ok: false, error: error.message };
  throw error;
}

/** A size for a message: "64 MB", "16 KB", "40 bytes". */
export function sizeInWords(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MB`;
  if (bytes >= 2 ** 10) return `${Math.round(bytes / 2 ** 10)} KB`;
  return `${bytes} bytes`;
}
