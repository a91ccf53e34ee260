/**
 * Splits a reply into a few streaming chunks on word boundaries, so the client visibly
 * streams even though the offline tutor composes its reply at once. Concatenating the
 * chunks gives back the text exactly.
 */
export const MIN_CHUNKS = 3;
export const MAX_CHUNKS = 6;
/** Roughly how many words go in one chunk before the count is clamped to MIN..MAX. */
export const WORDS_PER_CHUNK = 6;

export function splitIntoChunks(text: string): string[] {
  // Leading spaces only at the start: /\s*\S+\s*/g retried from every space of a blank run (quadratic).
  const words = text.match(/(?:^\s*)?\S+\s*/g) ?? [];
  if (words.length === 0) return text.length > 0 ? [text] : [];
  const wanted = Math.min(MAX_CHUNKS, Math.max(MIN_CHUNKS, Math.ceil(words.length / WORDS_PER_CHUNK)));
  const count = Math.min(wanted, words.length);
  const chunks: string[] = [];
  let from = 0;
  for (let i = 0; i < count; i++) {
    const to = Math.round(((i + 1) * words.length) / count);
    chunks.push(words.slice(from, to).join(''));
    from = to;
  }
  return chunks;
}
