import { describe, expect, it } from 'vitest';
import { splitIntoChunks } from './text-chunks';

describe('splitIntoChunks', () => {
  it('splits a reply into 3–6 chunks on word boundaries that join back exactly', () => {
    for (const text of [
      'Yes — that’s it. One word to get you going: “mitochondria”. What can you tell me?',
      'Hi there, friend',
      Array.from({ length: 120 }, (_, i) => `word${i}`).join(' '),
    ]) {
      const chunks = splitIntoChunks(text);
      expect(chunks.join('')).toBe(text);
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      expect(chunks.length).toBeLessThanOrEqual(6);
      for (const c of chunks.slice(1)) expect(c).toMatch(/^\S/);
    }
  });

  it('handles tiny and empty texts', () => {
    expect(splitIntoChunks('')).toEqual([]);
    expect(splitIntoChunks('Hello')).toEqual(['Hello']);
  });
});
