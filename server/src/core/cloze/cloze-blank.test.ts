import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { isStopword, stem, tokenize } from '../offline/lexical';
import { isCard, parseQuestionAnswer } from '../offline/question-answer';
import { wordNet } from '../offline/wordnet';
import { blankMark, chooseBlank } from './cloze-blank';

const statement = (content: string) => chooseBlank({ content, context: null });

// The lexicon loads once per process, slowly on a busy machine: in a hook, not inside the first test's time.
beforeAll(() => {
  wordNet();
});

describe('chooseBlank (SPEC §4.6)', () => {
  it.each([
    ['The mitochondria is the powerhouse of the cell.', 'The _____ is the powerhouse of the cell.', 'mitochondria'],
    ['Photosynthesis converts light energy into chemical energy.', '_____ converts light energy into chemical energy.', 'Photosynthesis'],
    ['Water boils at 100 degrees Celsius at sea level.', 'Water boils at 100 degrees _____ at sea level.', 'Celsius'],
    ['A sonnet has fourteen lines.', 'A _____ has fourteen lines.', 'sonnet'],
    // Every occurrence of the term goes, or the sentence would give it away.
    ['An adverb modifies a verb, an adjective or another adverb.', 'An _____ modifies a verb, an adjective or another _____.', 'adverb'],
  ])('blanks the rarest content word of %j', (content, prompt, answer) => {
    expect(statement(content)).toEqual({ prompt, answer });
  });

  it.each([
    ['Capital of France → Paris', { prompt: 'Capital of France → _____', answer: 'Paris' }],
    ['Q: What is the powerhouse of the cell? A: the mitochondria', { prompt: 'What is the powerhouse of the cell? _____', answer: 'the mitochondria' }],
    ['What is the chemical formula of water? H2O', { prompt: 'What is the chemical formula of water? _____', answer: 'H2O' }],
    ['404 → Not Found', { prompt: '404 → _____', answer: 'Not Found' }],
  ])('blanks the answer of the question/answer point %j', (content, expected) => {
    expect(statement(content)).toEqual(expected);
  });

  it('asks an imported card (the question as its context) by its question', () => {
    expect(chooseBlank({ content: 'Canberra', context: 'Capital of Australia' })).toEqual({ prompt: 'Capital of Australia → _____', answer: 'Canberra' });
    expect(chooseBlank({ content: 'Jupiter', context: 'Which is the largest planet?' })).toEqual({ prompt: 'Which is the largest planet? _____', answer: 'Jupiter' });
  });

  it('keeps a long answer and blanks its rarest word instead of the whole definition', () => {
    const blank = statement('Opportunity cost → the value of the next best alternative you give up when you make a choice');
    expect(blank?.prompt.startsWith('Opportunity cost → the value of the next best ')).toBe(true);
    expect(blank?.answer).toBe('alternative');
  });

  it('never blanks a number while the point has a word, nor a stop word, nor a function word WordNet leaves out', () => {
    expect(statement('The French Revolution began in 1789.')?.answer).not.toBe('1789');
    expect(statement('An object stays at rest unless a net force acts on it.')?.answer).not.toBe('unless');
    expect(statement('You cannot derive an ought from an is.')?.answer).not.toBe('cannot');
    expect(statement("Don't confuse mitosis with meiosis.")?.answer).toMatch(/^(mitosis|meiosis)$/);
  });

  it('blanks a number when the point has nothing else, and nothing when it has only stop words', () => {
    expect(statement('1789')).toEqual({ prompt: blankMark, answer: '1789' });
    expect(statement('To be or not to be')).toBeNull();
    expect(statement('   ')).toBeNull();
  });
});

/** Points written for the evaluation corpus by an author who had not read this code (eval/suites/labelled). */
function corpusPoints(): Array<{ content: string; context: string | null }> {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../eval/suites/labelled/corpus-dev.json');
  const corpus = JSON.parse(readFileSync(file, 'utf8')) as { sets: Record<string, { points: Array<{ content: string; context?: string }> }> };
  return Object.values(corpus.sets).flatMap((set) => set.points.map((point) => ({ content: point.content, context: point.context ?? null })));
}

describe('chooseBlank on every point of an independent corpus', () => {
  const points = corpusPoints();
  const cards = points.filter(isCard);
  const statements = points.filter((point) => !isCard(point) && parseQuestionAnswer(point.content) === null);

  it('has a corpus of many varied points to check: cards, question/answer lines and statements', () => {
    expect(points.length).toBeGreaterThan(100);
    expect(cards.length).toBeGreaterThan(5);
    expect(statements.length).toBeGreaterThan(80);
  });

  it('gives every point a prompt with one blank place, the same every time', () => {
    for (const point of points) {
      const blank = chooseBlank(point);
      expect(blank, point.content).not.toBeNull();
      expect(blank!.prompt, point.content).toContain(blankMark);
      expect(chooseBlank({ ...point }), point.content).toEqual(blank);
    }
  });

  it('asks a card by its question, for its whole answer', () => {
    for (const point of cards) expect(chooseBlank(point), point.content).toEqual({ prompt: expect.stringContaining(point.context!) as string, answer: point.content });
  });

  it('blanks one word of a statement, never a stop word, never a number when it has words, and leaves no form of it in the prompt', () => {
    for (const { content } of statements) {
      const { prompt, answer } = statement(content)!;
      const [term, ...rest] = tokenize(answer);
      expect(rest, content).toEqual([]);
      expect(isStopword(term!), content).toBe(false);
      expect(content, content).toContain(answer);
      if (tokenize(content).some((token) => !isStopword(token) && !/^[\d.,]+$/.test(token))) expect(answer, content).not.toMatch(/^[\d.,]+$/);
      expect(tokenize(prompt.split(blankMark).join(' ')).map(stem), content).not.toContain(stem(term!));
    }
  });
});
