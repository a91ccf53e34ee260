import { describe, expect, it } from 'vitest';
import type { ConversationMessage, EvaluationInput } from '../provider';
import { CHOICE_CONFIDENCE_CAP, confidenceFromCoverage, evaluateOffline } from './offline-evaluator';
import { allPoints, points } from './test-fixtures';
import { offlineToolCallId } from './tool-call-ids';

function evaluate(learner: string, extra: Partial<EvaluationInput> = {}) {
  return evaluateOffline({
    points: allPoints,
    recentMessages: [
      { role: 'tutor', content: 'One word to get you going: “mitochondria”. What can you tell me?' },
      { role: 'learner', content: learner },
    ],
    mode: 'recall',
    ...extra,
  });
}

const ids = (r: ReturnType<typeof evaluateOffline>) => r.recalledPoints.map((p) => p.id);

describe('evaluateOffline — what counts as recalled', () => {
  it('recalls a tentative answer with other word forms that covers most key ideas', () => {
    const r = evaluate('I think the mitochondrion produce ATP?');
    expect(r.recalledPoints).toEqual([{ id: points.mitochondria.id, confidence: 0.85, observation: 'expressed 3 of 4 key ideas: mitochondria, produce, ATP' }]);
  });

  it('recalls a paraphrase in other words and word forms', () => {
    const r = evaluate('the mitochondrion makes ATP by oxidative phosphorylation');
    expect(ids(r)).toEqual([points.mitochondria.id]);
  });

  it('recalls a full answer with a typo at full confidence', () => {
    const r = evaluate('Mitochondria produces ATP by oxidative phosphorilation');
    expect(r.recalledPoints).toEqual([
      { id: points.mitochondria.id, confidence: 0.99, observation: 'expressed all 4 key ideas: oxidative phosphorylation, mitochondria, produce, ATP' },
    ]);
  });

  it('does not recall a vague answer', () => {
    expect(ids(evaluate('mitochondria make energy for the cell'))).toEqual([]);
  });

  it('recalls nothing from an unrelated message', () => {
    const r = evaluate('Sorry, I was thinking about what to have for lunch. Pizza maybe?');
    expect(r.recalledPoints).toEqual([]);
    expect(r.feedback).toContain('Nothing new recalled');
  });

  it('checks off three points from one message', () => {
    const r = evaluate(
      'Apollo 11 landed on the moon in 1969, the Berlin Wall fell in 1989, and in Python lists are mutable but tuples are immutable.',
    );
    expect(ids(r)).toEqual([points.apollo.id, points.berlinWall.id, points.pythonTuples.id]);
    expect(r.feedback).toContain(`${allPoints.length - 3} ideas still to recall`);
  });

  it('never counts a tutor message as recall, even one containing the words', () => {
    const r = evaluateOffline({
      points: allPoints,
      recentMessages: [
        { role: 'tutor', content: 'The mitochondria produce ATP through oxidative phosphorylation. Canberra is the capital of Australia.' },
        { role: 'learner', content: 'ok, I have no idea' },
      ],
      mode: 'recall',
    });
    expect(r.recalledPoints).toEqual([]);
  });

  it('only the latest learner message is evidence', () => {
    const messages: ConversationMessage[] = [
      { role: 'learner', content: 'Canberra is the capital of Australia' },
      { role: 'tutor', content: 'Tell me more.' },
      { role: 'learner', content: 'I forgot the rest' },
    ];
    expect(evaluateOffline({ points: allPoints, recentMessages: messages, mode: 'recall' }).recalledPoints).toEqual([]);
  });

  it('is deterministic', () => {
    const msg = 'Binary search is logarithmic on a sorted array; the mitochondria make ATP';
    expect(evaluate(msg)).toEqual(evaluate(msg));
  });

  it('confidence follows coverage', () => {
    expect(confidenceFromCoverage(0)).toBe(0.5);
    expect(confidenceFromCoverage(2 / 3)).toBe(0.83);
    expect(confidenceFromCoverage(1.4)).toBe(1);
  });
});

describe('evaluateOffline — feedback for the tutor', () => {
  it('in recall mode names what was recalled, near misses with missing terms, and what remains', () => {
    const r = evaluate('Canberra is the capital of Australia. Also mitochondria and energy?');
    expect(ids(r)).toEqual([points.canberra.id]);
    expect(r.feedback).toContain('Recalled just now: "Canberra is the capital of Australia, not Sydney"');
    expect(r.feedback).toMatch(/Near miss: "The mitochondria produce ATP.*missing oxidative phosphorylation, ATP, produce/);
    expect(r.feedback).toContain(`${allPoints.length - 1} ideas still to recall`);
    expect(r.feedback).not.toContain(points.canberra.id);
  });

  it('in rabbithole mode only says what was recalled, or nothing', () => {
    const hit = evaluate('Funny, this reminds me that the Berlin Wall fell in 1989. Also mitochondria.', { mode: 'rabbithole' });
    expect(ids(hit)).toEqual([points.berlinWall.id]);
    expect(hit.feedback).toBe('Recalled: "The Berlin Wall fell in November 1989".');
    expect(evaluate('How do black holes evaporate?', { mode: 'rabbithole' }).feedback).toBe('');
  });

  it('says so when everything is recalled', () => {
    const r = evaluateOffline({
      points: [points.canberra],
      recentMessages: [{ role: 'learner', content: 'Canberra — the capital of Australia, not Sydney!' }],
      mode: 'recall',
    });
    expect(r.feedback).toContain('Every idea has now been recalled.');
  });
});

describe('evaluateOffline — widget answers', () => {
  const options = [points.canberra.content, points.mitochondria.content, points.apollo.content];
  const toolCallId = offlineToolCallId(points.mitochondria.id, 2);
  const pick = (index: number): ConversationMessage[] => [
    { role: 'tutor', content: 'Which of these?', toolCall: { id: toolCallId, name: 'present_choices', input: { prompt: 'Which?', options } } },
    { role: 'tool_result', toolCallId, content: JSON.stringify({ selectedIndex: index }) },
  ];

  it('a right pick recalls the probed point at capped confidence', () => {
    const r = evaluateOffline({ points: allPoints, recentMessages: pick(1), mode: 'recall' });
    expect(ids(r)).toEqual([points.mitochondria.id]);
    expect(r.recalledPoints[0]?.confidence).toBe(CHOICE_CONFIDENCE_CAP);
    expect(r.recalledPoints[0]?.observation).toContain('multiple-choice');
  });

  it('a wrong pick checks off nothing, not even the distractor', () => {
    expect(evaluateOffline({ points: allPoints, recentMessages: pick(0), mode: 'recall' }).recalledPoints).toEqual([]);
  });

  it('a free-text answer is evidence like a chat message', () => {
    const r = evaluateOffline({
      points: allPoints,
      recentMessages: [{ role: 'tool_result', toolCallId: 'offline-x-1', content: '{"text":"binary search takes logarithmic time if the array is sorted"}' }],
      mode: 'recall',
    });
    expect(ids(r)).toEqual([points.bigO.id]);
  });
});

describe('code answers', () => {
  it('recall a point by the code it quotes', () => {
    const point = { id: 'p-code', content: '`len(s)` returns the number of characters in a string', context: null };
    const call = { id: 'offline-p-code-1', name: 'present_code_editor', input: { prompt: 'Write it', language: 'python' } };
    const result = evaluateOffline({
      points: [point],
      mode: 'recall',
      recentMessages: [
        { role: 'tutor', content: 'Try writing it as code.', toolCall: call },
        { role: 'tool_result', toolCallId: call.id, content: 'word = "hello"\nprint(len(word))' },
      ],
    });
    expect(result.recalledPoints.map((p) => p.id)).toEqual(['p-code']);
    const wrong = evaluateOffline({
      points: [point],
      mode: 'recall',
      recentMessages: [
        { role: 'tutor', content: 'Try writing it as code.', toolCall: call },
        { role: 'tool_result', toolCallId: call.id, content: 'print(word.count("a"))' },
      ],
    });
    expect(wrong.recalledPoints).toEqual([]);
  });
});

describe('answers as the engine stores them (plain text)', () => {
  it('a wrong pick stored as its option text checks off nothing, not even the distractor', () => {
    const probe = { id: 'p-probe', content: 'Mitochondria produce ATP through cellular respiration', context: null };
    const other = { id: 'p-other', content: 'Ribosomes assemble proteins from amino acids', context: null };
    const call = { id: offlineToolCallId('p-probe', 2), name: 'present_choices', input: { prompt: 'Which?', options: [other.content, probe.content] } };
    const result = evaluateOffline({
      points: [probe, other],
      mode: 'recall',
      recentMessages: [
        { role: 'tutor', content: 'Which of these?', toolCall: call },
        { role: 'tool_result', toolCallId: call.id, content: other.content },
      ],
    });
    expect(result.recalledPoints).toEqual([]);
    const right = evaluateOffline({
      points: [probe, other],
      mode: 'recall',
      recentMessages: [
        { role: 'tutor', content: 'Which of these?', toolCall: call },
        { role: 'tool_result', toolCallId: call.id, content: probe.content },
      ],
    });
    expect(right.recalledPoints).toEqual([expect.objectContaining({ id: 'p-probe', confidence: CHOICE_CONFIDENCE_CAP })]);
  });
});

describe('evaluateOffline — cores, cards and feedback (issue 28)', () => {
  const evaluateOne = (point: { content: string; context: string | null }, learner: string) =>
    evaluateOffline({ points: [{ id: 'p1', ...point }], recentMessages: [{ role: 'learner', content: learner }], mode: 'recall' });

  it('recalls the core said without its detail, and names the missing core words of a near miss', () => {
    const rome = { content: 'The Western Roman Empire fell in 476 AD when Odoacer deposed Romulus Augustulus.', context: null };
    expect(evaluateOne(rome, 'the western roman empire fell in 476').recalledPoints.map((p) => p.id)).toEqual(['p1']);
    const near = evaluateOne(rome, 'the Western Roman Empire fell');
    expect(near.recalledPoints).toEqual([]);
    const missing = /missing ([^.]*)\./.exec(near.feedback)?.[1];
    expect(missing).toMatch(/^476/);
    expect(missing).not.toContain('Odoacer');
  });

  it('names the contradiction in the feedback', () => {
    const r = evaluateOne({ content: 'Binary search requires the list to be sorted.', context: null }, 'binary search does not require the list to be sorted');
    expect(r.recalledPoints).toEqual([]);
    expect(r.feedback).toContain('Contradiction on "Binary search requires the list to be sorted.": the learner negates what the point states');
  });

  it('recalls a card by its answer, unless the message says something else of its question or is about something else', () => {
    const scurvy = { content: 'scurvy', context: 'Vitamin C deficiency' };
    expect(evaluateOne(scurvy, "it's scurvy").recalledPoints.map((p) => p.id)).toEqual(['p1']);
    expect(evaluateOne(scurvy, 'vitamin A deficiency causes scurvy').recalledPoints).toEqual([]);
    const canberra = { content: 'Canberra', context: 'Capital of Australia' };
    expect(evaluateOne(canberra, 'the capital of Australia is definitely not Canberra').recalledPoints).toEqual([]);
    expect(evaluateOne(canberra, "I'm flying to Canberra next week for work actually").recalledPoints).toEqual([]);
    expect(evaluateOne(canberra, 'Canberra, my aunt lives there').recalledPoints.map((p) => p.id)).toEqual(['p1']);
  });
});
