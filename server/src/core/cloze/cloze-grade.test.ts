import { beforeAll, describe, expect, it } from 'vitest';
import { wordNet } from '../offline/wordnet';
import { gradedPart, hintFor, isRightAnswer } from './cloze-grade';

// The lexicon loads once per process, slowly on a busy machine: in a hook, not inside the first test's time.
beforeAll(() => {
  wordNet();
});

const cell = { prompt: 'The _____ is the powerhouse of the cell.', answer: 'mitochondria' };
const heart = { prompt: 'The heart _____ blood through the body.', answer: 'pumps' };
const house = { prompt: 'The house is very _____.', answer: 'big' };
const car = { prompt: 'The _____ would not start this morning.', answer: 'car' };
const doctor = { prompt: 'She trained for years to become a _____.', answer: 'physician' };
const revolution = { prompt: 'The French Revolution began in _____.', answer: '1789' };
const water = { prompt: 'What is the chemical formula of water? _____', answer: 'H2O' };
const capital = { prompt: 'Capital of France → _____', answer: 'Paris' };
const photo = { prompt: '_____ converts light energy into chemical energy.', answer: 'Photosynthesis' };
const mice = { prompt: 'The cat chased the _____ out of the barn.', answer: 'mice' };
const nucleus = { prompt: 'The _____ holds the cell’s DNA.', answer: 'nucleus' };
const painter = { prompt: 'Who painted Guernica? _____', answer: 'Pablo Picasso' };
const status = { prompt: '401 → _____', answer: 'Unauthorized (not authenticated)' };
const symbol = { prompt: 'Chemical symbol for potassium → _____', answer: 'K' };

// Written by hand from what a teacher would accept, not from the implementation.
describe('isRightAnswer (SPEC §4.6): right answers', () => {
  it.each([
    ['the term as written', cell, 'mitochondria'],
    ['another case', cell, 'MITOCHONDRIA'],
    ['with an article and punctuation around it', cell, '  The mitochondria!  '],
    ['in a short sentence', cell, 'I think it is the mitochondria'],
    ['the singular of a Latin plural', cell, 'mitochondrion'],
    ['a one-letter typo in a long term', cell, 'mitocondria'],
    ['two letters swapped in a long term', photo, 'photosyntehsis'],
    ['a past tense', heart, 'pumped'],
    ['a gerund', heart, 'pumping'],
    ['the base form', heart, 'pump'],
    ['a synonym', house, 'large'],
    ['a synonym of a noun', car, 'automobile'],
    ['a synonym of a person', doctor, 'doctor'],
    ['an irregular singular', mice, 'mouse'],
    ['an irregular plural', nucleus, 'nuclei'],
    ['the year', revolution, '1789'],
    ['a formula in lower case', water, 'h2o'],
    ['a name with punctuation', capital, 'Paris.'],
    ['the better-known half of a name', painter, 'Picasso'],
    ['the whole name', painter, 'pablo picasso'],
    ['the answer without its bracketed note', status, 'unauthorized'],
    ['a one-letter answer', symbol, 'k'],
    ['the sentence pasted back with the term in it', cell, 'The mitochondria is the powerhouse of the cell.'],
    ['with a hedge around it', cell, 'hmm, probably the mitochondria?'],
  ])('%s', (_case, item, given) => {
    expect(isRightAnswer(given, item)).toBe(true);
  });
});

describe('isRightAnswer (SPEC §4.6): wrong answers', () => {
  it.each([
    ['an empty answer', cell, ''],
    ['only spaces and punctuation', cell, '  ?! '],
    ['only an article', cell, 'the'],
    ['a different word', cell, 'nucleus'],
    ['a different word of the same field', photo, 'respiration'],
    ['a word of the prompt', photo, 'energy'],
    ['the prompt pasted back', cell, 'The _____ is the powerhouse of the cell.'],
    ['the sentence without the term', cell, 'The powerhouse of the cell'],
    ['a different verb', heart, 'pushes'],
    ['an antonym', house, 'small'],
    ['a typo in a short term', house, 'bog'],
    ['a typo in a 5-letter term', heart, 'pumbs'],
    ['a word one letter away from a short term', { prompt: 'The _____ pumps blood.', answer: 'heart' }, 'heard'],
    ['two typos in a long term', cell, 'mitocondira'],
    ['the year before', revolution, '1788'],
    ['a zero for an O', water, 'H20'],
    ['the country instead of its capital', capital, 'France'],
    ['another painter', painter, 'Pablo Neruda'],
    ['a different letter', symbol, 'P'],
    ['a list of guesses with the term among them', cell, 'nucleus, ribosome, mitochondria, golgi, lysosome, vacuole'],
    ['every painter one can think of', painter, 'Monet Picasso Dali Goya Velazquez Miro'],
  ])('%s', (_case, item, given) => {
    expect(isRightAnswer(given, item)).toBe(false);
  });
});

describe('hintFor', () => {
  it('gives the first letter and the length, never the term', () => {
    expect(hintFor('mitochondria')).toBe('It starts with "m" and has 12 letters.');
    expect(hintFor('the Nile')).toBe('It starts with "N" and has 4 letters.');
    expect(hintFor('1789')).toBe('It starts with "1" and has 4 digits.');
    expect(hintFor('Pablo Picasso')).toBe('It is 2 words and starts with "P".');
    expect(hintFor('K')).toBe('It starts with "K" and has 1 character.');
    expect(hintFor('Unauthorized (not authenticated)')).toBe('It starts with "U" and has 12 letters.');
  });

  it('reads what must be named without its bracketed note', () => {
    expect(gradedPart('statin (lowers cholesterol)')).toBe('statin');
    expect(gradedPart('(aside)')).toBe('(aside)');
  });
});
