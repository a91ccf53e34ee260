import { FreeTextProps, MultipleChoiceProps } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ChecklistPoint, TutorEvent, TutorInput } from '../provider';
import { extractKeyTerms, matchedTerms, normalizeText } from './lexical';
import { givesAway } from './spoilers';
import { choicePrompt, composeReply, replyOffline, type ComposedReply } from './offline-tutor';
import { substituteDistractors } from './distractors';
import { allPoints, points, tutorInput } from './test-fixtures';

async function collect(input: TutorInput): Promise<TutorEvent[]> {
  const events: TutorEvent[] = [];
  for await (const e of replyOffline(input)) events.push(e);
  return events;
}

/** The options of a multiple-choice widget event, validated against the shared schema. */
function choiceOptionsOf(widget: ComposedReply['widget'] | TutorEvent | undefined): string[] {
  if (widget?.type !== 'widget' || widget.widget.kind !== 'multiple_choice') throw new Error('no multiple choice');
  return MultipleChoiceProps.parse(widget.widget.props).options;
}

function textOf(events: TutorEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
}

function expectNoLeaks(text: string, input: TutorInput): void {
  for (const p of input.checklist) expect(text).not.toContain(p.id);
  expect(text).not.toMatch(/evaluator|confidence|score|the student|key term|\b\d\.\d+\b/i);
  expect(text).not.toContain(input.feedback);
}

/** Neither the whole content nor more than one key term of `point`. */
function expectHidden(text: string, point: ChecklistPoint): void {
  expect(normalizeText(text)).not.toContain(normalizeText(point.content));
  expect(matchedTerms(text, extractKeyTerms(point.content)).length, text).toBeLessThanOrEqual(1);
}

describe('replyOffline — session start', () => {
  it('welcomes, names the set, says how many ideas, and cues the first point', async () => {
    const input = tutorInput({ trigger: 'session_start', probePoint: points.mitochondria, turn: 0 });
    const events = await collect(input);
    const text = textOf(events);
    expect(text).toContain('“Exam prep — week 3”');
    expect(text).toContain('We’ll go through ten ideas');
    expect(text).toContain('“mitochondria”');
    expectHidden(text, points.mitochondria);
    expectNoLeaks(text, input);
  });

  it('streams the text as 3–6 chunks on word boundaries', async () => {
    const input = tutorInput({ trigger: 'session_start', probePoint: points.mitochondria });
    const events = await collect(input);
    expect(events.every((e) => e.type === 'text_delta')).toBe(true);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.length).toBeLessThanOrEqual(6);
    expect(textOf(events)).toBe(composeReply(input).text);
  });
});

describe('replyOffline — cues never give the point away', () => {
  it('across realistic points, attempts and turns: no full content, at most one key term', async () => {
    for (const point of allPoints) {
      for (const probeAttempts of [0, 1, 2, 3]) {
        for (const turn of [1, 2, 3, 4, 5]) {
          const input = tutorInput({ probePoint: point, probeAttempts, turn, trigger: turn === 1 ? 'session_start' : 'learner_message' });
          const events = await collect(input);
          const text = textOf(events);
          expectHidden(text, point);
          for (const other of allPoints) expect(normalizeText(text)).not.toContain(normalizeText(other.content));
          expectNoLeaks(text, input);
          const widget = events.find((e) => e.type === 'widget');
          if (widget?.type === 'widget' && widget.widget.kind === 'multiple_choice') {
            // The options show the point whole at this level; the prompt's blank sits exactly
            // where they differ, so every word it shows is one all options share (issue 28).
            const options = choiceOptionsOf(widget);
            const shown = /“(.*)”/.exec(widget.widget.props.prompt)?.[1]?.split(' ');
            if (shown) {
              const first = shown.findIndex((word) => word.includes('_'));
              const last = shown.length - 1 - [...shown].reverse().findIndex((word) => word.includes('_'));
              for (const option of options) {
                const words = option.split(' ');
                expect(words.slice(0, first), widget.widget.props.prompt).toEqual(shown.slice(0, first));
                expect(words.slice(words.length - (shown.length - 1 - last)), widget.widget.props.prompt).toEqual(shown.slice(last + 1));
              }
            }
          } else if (widget?.type === 'widget') {
            expectHidden(widget.widget.props.prompt, point);
            if (widget.widget.kind === 'free_text') expectHidden(FreeTextProps.parse(widget.widget.props).context ?? '', point);
          }
        }
      }
    }
  });

  it('escalates: open question, then a cloze hint, then a multiple choice', () => {
    const open = composeReply(tutorInput({ probePoint: points.mitochondria, probeAttempts: 0 }));
    expect(open.text).toContain('“mitochondria”');
    expect(open.text).not.toContain('_');
    const hint = composeReply(tutorInput({ probePoint: points.mitochondria, probeAttempts: 1 }));
    expect(hint.text).toContain('“The mitochondria p______ A__ through o________ p______________”');
    expect(hint.widget).toBeNull();
    const choice = composeReply(tutorInput({ probePoint: points.mitochondria, probeAttempts: 2 }));
    expect(choice.widget?.widget.kind).toBe('multiple_choice');
  });

  it('uses the author’s context for the opening question', () => {
    const r = composeReply(tutorInput({ probePoint: points.photosynthesis, probeAttempts: 0 }));
    expect(r.text).toContain('How plants make their own food from light');
    expect(r.text.toLowerCase()).not.toContain('photosynthesis');
  });

  it('offers a free-text widget on the second attempt at a long point', () => {
    const r = composeReply(tutorInput({ probePoint: points.dnaReplication, probeAttempts: 1 }));
    expect(r.widget?.toolCallId).toBe(`offline-${points.dnaReplication.id}-1`);
    expect(r.widget?.widget.kind).toBe('free_text');
    expect(FreeTextProps.safeParse(r.widget?.widget.props).success).toBe(true);
  });
});

describe('replyOffline — the multiple-choice widget', () => {
  it('appears at attempt 2 with the right option exactly once, and never another point still to recall (issue 15)', async () => {
    let widgets = 0;
    for (const point of allPoints) {
      const input = tutorInput({ probePoint: point, probeAttempts: 2, turn: 7 });
      const events = await collect(input);
      const widget = events.at(-1);
      if (widget?.type !== 'widget') continue;
      widgets += 1;
      expect(widget).toMatchObject({ type: 'widget', toolCallId: `offline-${point.id}-2` });
      const options = choiceOptionsOf(widget);
      expect(options.filter((o) => o === point.content)).toHaveLength(1);
      expect(new Set(options).size).toBe(options.length);
      expect(options.length).toBeGreaterThanOrEqual(2);
      for (const other of allPoints.filter((p) => p.id !== point.id)) {
        for (const option of options) expect(givesAway(option, other.content), `${option} / ${other.content}`).toBe(false);
      }
      expect(textOf(events)).toMatch(/another way|different approach|which of these/i);
    }
    // Term-level substitutes give most points a multiple choice even with nothing recalled yet
    // (a point whose words are all ambiguous nouns gets the cloze again instead of nonsense).
    expect(widgets).toBeGreaterThanOrEqual(allPoints.length - 3);
  });

  it('builds distractors from the point itself: one word substituted or the statement negated', () => {
    const checklist = allPoints.map((p) => ({ ...p, recalled: false }));
    const options = choiceOptionsOf(composeReply(tutorInput({ checklist, probePoint: points.apollo, probeAttempts: 2 })).widget);
    expect(options).toContain(points.apollo.content);
    for (const option of options.filter((o) => o !== points.apollo.content)) {
      const differing = option.split(' ').filter((word, index) => word !== points.apollo.content.split(' ')[index]);
      expect(differing.length, option).toBeGreaterThanOrEqual(1);
    }
  });

  it('orders options by the point, not by the checklist order, and prefers recalled distractors', () => {
    const checklist = allPoints.map((p, i) => ({ ...p, recalled: i >= 6 }));
    const a = composeReply(tutorInput({ checklist, probePoint: points.mitochondria, probeAttempts: 2 }));
    const b = composeReply(tutorInput({ checklist: [...checklist].reverse(), probePoint: points.mitochondria, probeAttempts: 2 }));
    expect(a.widget).toEqual(b.widget);
    const options = choiceOptionsOf(a.widget);
    const recalledContents = new Set(checklist.filter((p) => p.recalled).map((p) => p.content));
    expect(options.filter((o) => o !== points.mitochondria.content).every((o) => recalledContents.has(o))).toBe(true);
  });

  it('without a safe distractor, gives the cloze again instead', () => {
    const canberra = { id: 'pt_only', content: 'Canberra', context: null };
    const r = composeReply(tutorInput({ checklist: [{ ...canberra, recalled: false }], probePoint: canberra, probeAttempts: 2 }));
    expect(r.widget).toBeNull();
    expect(r.text).toContain('C_______');
  });
});

describe('replyOffline — acknowledging recall and closing', () => {
  it('acknowledges one recall without quoting anything, then cues the next point', () => {
    const checklist = allPoints.map((p) => ({ ...p, recalled: p.id === points.canberra.id }));
    const input = tutorInput({ checklist, justRecalled: [points.canberra], probePoint: points.berlinWall, turn: 2 });
    const text = composeReply(input).text;
    expect(text).toMatch(/that’s it|Exactly right|Spot on|That’s the one/);
    expect(text).not.toContain('Canberra');
    expectHidden(text, points.berlinWall);
    expectNoLeaks(text, input);
  });

  it('notices several recalls at once', () => {
    const just = [points.apollo, points.berlinWall, points.pythonTuples];
    const checklist = allPoints.map((p) => ({ ...p, recalled: just.some((j) => j.id === p.id) }));
    const two = composeReply(tutorInput({ checklist, justRecalled: just.slice(0, 2), probePoint: points.bigO, turn: 3 }));
    expect(two.text).toMatch(/two of them at once|Two in one go/);
    const three = composeReply(tutorInput({ checklist, justRecalled: just, probePoint: points.bigO, turn: 3 }));
    expect(three.text).toMatch(/three ideas in one go|three at once/);
  });

  it('congratulates when everything is recalled', () => {
    const checklist = allPoints.map((p) => ({ ...p, recalled: true }));
    const r = composeReply(tutorInput({ checklist, probePoint: null, justRecalled: [points.canberra], turn: 9 }));
    expect(r.text).toMatch(/everything|completes/);
    expect(r.text).toContain('Exam prep — week 3');
    expect(r.widget).toBeNull();
  });

  it('varies its phrasing across turns but is deterministic for the same input', async () => {
    const texts = new Set<string>();
    for (let turn = 1; turn <= 8; turn++) {
      const input = tutorInput({ probePoint: points.berlinWall, probeAttempts: 1, turn });
      expect(await collect(input)).toEqual(await collect(input));
      texts.add(composeReply(input).text);
    }
    expect(texts.size).toBeGreaterThan(1);
  });
});

describe('replyOffline — rabbit holes', () => {
  it('follows the tangent without cueing or widgets, and mentions a recall briefly', async () => {
    const input = tutorInput({
      mode: 'rabbithole',
      rabbitholeTopic: 'why ATP synthase spins',
      probePoint: points.bigO,
      probeAttempts: 2,
      justRecalled: [points.berlinWall],
      turn: 4,
    });
    const events = await collect(input);
    const text = textOf(events);
    expect(events.some((e) => e.type === 'widget')).toBe(false);
    expect(text).toContain('why ATP synthase spins');
    expect(text).toMatch(/what do you already know|current understanding/i);
    expect(text).toMatch(/one of the ideas/);
    expect(text).not.toContain('_');
    expect(matchedTerms(text, extractKeyTerms(points.bigO.content))).toEqual([]);
    expectNoLeaks(text, input);
  });
});

describe('replyOffline — questions, own words, a different idea after a miss (issue 15)', () => {
  const asking = (question: string, probeAttempts: number, lastCue: string) =>
    tutorInput({
      probePoint: points.mitochondria,
      probeAttempts,
      turn: 4,
      conversation: [
        { role: 'tutor', content: lastCue },
        { role: 'learner', content: question },
      ],
    });

  it('answers a question briefly, then the same cue at the same level, without “not quite”', () => {
    const lastCue = 'Here’s a hint — try filling in the blanks: “The mitochondria p______ A__ through o________ p______________”';
    for (const question of ['what do you mean?', 'ok, got it', 'why does that matter?', 'what about the second part?']) {
      const reply = composeReply(asking(question, 1, lastCue));
      expect(reply.text, question).not.toMatch(/not quite|not yet|Hmm/i);
      expect(reply.text, question).toContain('The mitochondria p______ A__ through o________ p______________');
      expect(reply.widget).toBeNull();
      expectHidden(reply.text, points.mitochondria);
    }
    expect(composeReply(asking('ok, got it', 1, lastCue)).text).toMatch(/^(Take your time|Sure|Whenever you’re ready)/);
    expect(composeReply(asking('what do you mean?', 1, lastCue)).text).toContain('“Exam prep — week 3”');
  });

  it('after a miss, cues a different key idea than the last cue named', () => {
    const lastCue = 'Here’s a keyword to start from: “mitochondria”. What do you remember that goes with it?';
    const reply = composeReply(tutorInput({
      probePoint: points.mitochondria,
      probeAttempts: 1,
      turn: 3,
      conversation: [
        { role: 'tutor', content: lastCue },
        { role: 'learner', content: 'something about energy?' },
      ],
    }));
    const named = matchedTerms(reply.text, extractKeyTerms(points.mitochondria.content)).map((term) => term.token);
    expect(named).toHaveLength(1);
    expect(named).not.toContain('mitochondria');
    expect(reply.text).toMatch(/Not quite|Hmm|another angle|no worries/);
  });

  it('acknowledges a recall in the learner’s own words, never naming a point still to recall', () => {
    const checklist = allPoints.map((p) => ({ ...p, recalled: p.id === points.pythonTuples.id }));
    const input = tutorInput({
      checklist,
      justRecalled: [points.pythonTuples],
      probePoint: points.bigO,
      turn: 2,
      conversation: [{ role: 'learner', content: 'you can change a list, but a tuple is fixed — tuples are immutable' }],
    });
    const text = composeReply(input).text;
    expect(text).toMatch(/“[^”]*(?:list|tuple|immutable)[^”]*”/i);
    for (const other of allPoints.filter((p) => p.id !== points.pythonTuples.id && p.id !== points.bigO.id)) expect(givesAway(text, other.content)).toBe(false);
  });
});

describe('choices a teacher would write (issue 28 item 3)', () => {
  it('blanks exactly the words where the options differ, never a word they all share', () => {
    const options = ['The solar system has seven planets', 'The solar system has eight planets', 'The solar system has nine planets'];
    expect(choicePrompt('The solar system has eight planets', options)).toBe('Which of these completes “The solar system has _____ planets”?');
    expect(choicePrompt('Rivers flow downhill', ['Deltas form at the mouth', 'Rivers flow downhill'])).toBe('Which of these is the idea we’re after?');
  });

  it('substitutes numbers by their neighbours and nouns only where the word’s category is certain', () => {
    expect(substituteDistractors('The solar system has eight planets', 'p1', 3)).toEqual(expect.arrayContaining(['The solar system has seven planets', 'The solar system has nine planets']));
    // "capital" is a city or wealth: no sister term of the wrong sense ("security"), only the negation.
    expect(substituteDistractors('Paris is the capital of France', 'p1', 3)).toEqual(['Paris is not the capital of France']);
    // "mitochondria" has one sense: its sister organelles are plausible.
    expect(substituteDistractors('The mitochondria produce ATP through oxidative phosphorylation', 'p1', 3).join(' ')).toMatch(/lysosomes|ribosomes|centrioles/);
  });
});

describe('retry (issue 28 item 3)', () => {
  it('says the reply differently when asked for it again, across points and cue levels', async () => {
    let differed = 0;
    let tried = 0;
    for (const point of allPoints) {
      for (const probeAttempts of [0, 1]) {
        const input = tutorInput({ probePoint: point, probeAttempts, turn: 3 });
        const first = textOf(await collect(input));
        const again = textOf(await collect({ ...input, retryOf: first }));
        tried += 1;
        if (normalizeText(again) !== normalizeText(first)) differed += 1;
        expectHidden(again, point);
      }
    }
    expect(differed).toBe(tried);
  });
});

describe('never the same sentence twice in a row (issue 28 item 3)', () => {
  it('a reply after a miss repeats no sentence of the tutor’s last one', async () => {
    for (const point of allPoints) {
      const first = textOf(await collect(tutorInput({ probePoint: point, probeAttempts: 3, turn: 4 })));
      const next = textOf(
        await collect(tutorInput({ probePoint: point, probeAttempts: 4, turn: 5, conversation: [{ role: 'tutor', content: first }, { role: 'learner', content: 'no idea at all' }] })),
      );
      const said = new Set(first.split(/(?<=[.!?”])\s+/).map(normalizeText));
      const repeated = next.split(/(?<=[.!?”])\s+/).map(normalizeText).filter((sentence) => sentence && said.has(sentence) && !sentence.includes('_'));
      expect(repeated, `${first}\n→ ${next}`).toEqual([]);
    }
  });
});

describe('the blank of a choice sits where the options differ (issue 28 item 3)', () => {
  it('blanks the verb an inserted "not" negates', () => {
    expect(choicePrompt('Paris is the capital of France', ['Paris is the capital of France', 'Paris is not the capital of France'])).toBe(
      'Which of these completes “Paris _____ the capital of France”?',
    );
  });
});
