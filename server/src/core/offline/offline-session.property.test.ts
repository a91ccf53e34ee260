/**
 * Property test (issue 15): over generated recall sets and seeded learners, across every cue
 * level and widget of whole offline sessions, no frame the learner receives gives away a point
 * still to recall — other than the cued point's allowed part — and a question is never graded.
 *
 * Real parts: the recall room on the in-memory storage, the real offline provider (evaluator,
 * tutor, safety) and the turn runner with its widget guard; the learner is simulated by a
 * seeded random source (`createRandom`), so a failing seed replays exactly.
 *
 * "Gives away" is judged twice: by the lexical recall rule (spoilers.ts) and by the offline
 * evaluator's own paraphrase-aware match (echoing the text back would recall the point).
 * The cued point may be named by one key term in any text (its anchor), and its content may
 * be an option of a multiple-choice question from cue level 2 on.
 */
import type { ServerEvent, Widget } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { createRandom, pickOne, randomInt, type Random } from '../assessment/random';
import { silentLogger } from '../ports';
import { unlimitedModelBudget } from '../limits/model-budget';
import { recallModule } from '../recall/recall-module';
import type { RoomBase } from '../session/room-base';
import { fixedClock, recordingListener, seededIds } from '../session/test-support';
import { widgetTexts } from '../session/widget-guard';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage } from '../storage/storage';
import { matchPoint, prepareMessage } from './idea-match';
import { createOfflineProvider } from './offline-provider';
import { normalizeText } from './lexical';
import { givesAway, mentionedTerms } from './spoilers';

const NOUNS = ['mitochondria', 'ribosomes', 'the nucleus', 'enzymes', 'glucose', 'oxygen', 'carbon dioxide', 'proteins', 'water', 'sunlight', 'chlorophyll', 'cells', 'rivers', 'glaciers', 'volcanoes', 'planets', 'the Moon', 'iron', 'acids', 'neurons'];
const VERBS = ['produce', 'store', 'release', 'absorb', 'convert', 'transport', 'break down', 'build', 'contain', 'regulate', 'carry', 'erode'];
const TAILS = ['', '', ' in the dark', ' at high temperature', ' during the day', ' in 1969', ' about 100 times faster', ' through diffusion', ' inside the membrane'];
const CONTEXTS = [null, null, 'Biology basics', 'Think about energy', 'Where does it happen?', 'Earth science'];
const TITLES = ['Cells and energy', 'Exam prep', 'Glaciers and rivers', 'Week 3', 'Proteins'];

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A set of 3–7 distinct points built from a shared vocabulary (so points overlap in words, as real sets do). */
function generateSet(random: Random): { title: string; points: Array<{ content: string; context: string | null }> } {
  const count = randomInt(random, 3, 7);
  const points = new Map<string, string | null>();
  while (points.size < count) {
    const subject = pickOne(random, NOUNS);
    const object = pickOne(random, NOUNS.filter((noun) => noun !== subject));
    points.set(capitalize(`${subject} ${pickOne(random, VERBS)} ${object}${pickOne(random, TAILS)}`), pickOne(random, CONTEXTS));
  }
  return { title: pickOne(random, TITLES), points: [...points].map(([content, context]) => ({ content, context })) };
}

interface Moment {
  /** The set's title: the learner's own words, quoted as written (issue 28), so not a spoiler. */
  title: string;
  unchecked: Array<{ id: string; content: string }>;
  probe: { id: string; content: string } | null;
  level: number;
}

/** Every way a frame could give a point away, as readable failures (empty when the frame is clean). */
function spoilersIn(quoted: string, moment: Moment, option: boolean): string[] {
  const found: string[] = [];
  const text = quoted.split(moment.title).join(' ');
  const prepared = prepareMessage(text);
  // The cued point's own wording as an option (level ≥ 2) is the cued point's, however like another point it reads.
  const cuedOption = option && moment.probe !== null && normalizeText(text) === normalizeText(moment.probe.content);
  for (const point of moment.unchecked) {
    const isProbe = point.id === moment.probe?.id;
    if (cuedOption && !isProbe) continue;
    if (isProbe) {
      // The cued point: one key term anywhere; its content only as an option from level 2 on.
      if (option) {
        if (moment.level < 2 && givesAway(text, point.content)) found.push(`option gives the cued point away before level 2: ${text}`);
        continue;
      }
      if (mentionedTerms(text, point.content).length > 1) found.push(`names ${mentionedTerms(text, point.content).length} key terms of the cued point "${point.content}": ${text}`);
      if (matchPoint(prepared, point.content).recalled) found.push(`echoing it recalls the cued point "${point.content}": ${text}`);
      continue;
    }
    if (givesAway(text, point.content)) found.push(`gives away "${point.content}" (lexically): ${text}`);
    else if (matchPoint(prepared, point.content).recalled) found.push(`gives away "${point.content}" (paraphrase): ${text}`);
  }
  return found;
}

function widgetSpoilers(widget: Widget, moment: Moment): string[] {
  const found: string[] = [];
  if (widget.kind === 'multiple_choice' && moment.level < 2) found.push(`multiple choice at cue level ${moment.level}`);
  const request = { kind: widget.kind, props: widget.props } as Parameters<typeof widgetTexts>[0];
  // From level 2 a multiple choice shows the cued point whole among its options, so its prompt
  // may name the point's words too (its blank sits where the options differ, issue 28); it
  // still may not give away any other point.
  const choiceShown = widget.kind === 'multiple_choice' && moment.level >= 2;
  for (const piece of widgetTexts(request)) found.push(...spoilersIn(piece.text, moment, piece.option || choiceShown));
  return found;
}

function frameSpoilers(event: ServerEvent, moment: Moment): string[] {
  switch (event.type) {
    case 'assistant':
      return spoilersIn(event.payload.message, moment, false);
    case 'widget':
      return widgetSpoilers(event.payload, moment);
    case 'state_update':
      // A widget still pending may come from an earlier cue (the learner chatted past it): its content is checked, not its level.
      return event.payload.state.status === 'awaiting_client_action'
        ? widgetSpoilers(event.payload.state.pendingWidget, { ...moment, level: Math.max(moment.level, 2) })
        : [];
    default:
      // Deltas are pieces of the `assistant` message checked whole; the rest carry no point content.
      return [];
  }
}

const MISSES = ['no idea', 'I do not remember', 'hmm, not sure', 'it has something to do with cells'];
const QUESTIONS = ['what do you mean?', 'can you rephrase that?', 'why is that?', 'what about the second part?'];
/** Acknowledgements: never an answer, never a miss (issue 28). */
const CONTINUATIONS = ['ok', 'got it', 'okay, makes sense', 'sure, go on', '👍'];

async function runSession(seed: number): Promise<{ spoilers: string[]; turns: number; questions: number; widgets: Set<string>; levels: Set<number>; questionGraded: string[] }> {
  const random = createRandom(`offline-session-${seed}`);
  const set = generateSet(random);
  const storage: Storage = createMemoryStorage(sessionTypeCatalog);
  const clock = fixedClock();
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.recallSets.create({ id: 'set1', learnerId: 'l1', name: set.title, description: null, createdAt: clock.now() });
    for (const [position, point] of set.points.entries()) {
      await tx.recallSets.addPoint({ id: `p${position + 1}`, recallSetId: 'set1', content: point.content, context: point.context, position, createdAt: clock.now() });
    }
  });
  const recall = recallModule({ storage, provider: createOfflineProvider(), clock, ids: seededIds(`s${seed}`), logger: silentLogger, modelBudget: unlimitedModelBudget });
  const created = await recall.create({ learnerId: 'l1', body: { type: 'recall', recallSetId: 'set1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  const sessionId = created.value;
  const room: RoomBase = recall.openRoom(sessionId, () => {});
  const heard = recordingListener();

  const moment = async (): Promise<Moment & { recalled: number; ended: boolean; pending: Widget | null }> => {
    const snapshot = (await storage.loadSessionSnapshot(sessionId))!;
    const state = typeStateOf(snapshot.session, 'recall');
    const unchecked = snapshot.checklist.filter((entry) => entry.status === 'pending').map((entry) => ({ id: entry.pointId, content: entry.content }));
    const probe = snapshot.checklist[state.probeIndex];
    const pending = snapshot.pendingAction ? ({ widgetId: snapshot.pendingAction.id, kind: snapshot.pendingAction.kind, props: snapshot.pendingAction.props } as Widget) : null;
    return {
      title: set.title,
      unchecked,
      probe: probe && probe.status === 'pending' ? { id: probe.pointId, content: probe.content } : null,
      level: state.probeAttempts,
      recalled: snapshot.checklist.length - unchecked.length,
      ended: snapshot.session.status === 'completed' || snapshot.session.status === 'abandoned',
      pending,
    };
  };

  const spoilers: string[] = [];
  const widgets = new Set<string>();
  const levels = new Set<number>();
  const questionGraded: string[] = [];
  let questions = 0;
  let from = 0;
  const check = async () => {
    const now = await moment();
    for (const event of heard.events.slice(from)) spoilers.push(...frameSpoilers(event, now).map((found) => `seed ${seed}, ${event.type}: ${found}`));
    for (const event of heard.events.slice(from)) if (event.type === 'widget') widgets.add(event.payload.kind);
    levels.add(now.level);
    from = heard.events.length;
    return now;
  };

  await room.attach(heard.listener);
  await room.settled();
  let now = await check();
  let turns = 0;
  for (; turns < 30 && !now.ended; turns++) {
    const before = now;
    let asked = false;
    if (now.pending && random.next() < 0.8) {
      const widget = now.pending;
      const response =
        widget.kind === 'multiple_choice'
          ? { selectedIndex: randomInt(random, 0, widget.props.options.length - 1) }
          : widget.kind === 'code_editor'
            ? { code: 'print(1)', language: widget.props.language }
            : { text: random.next() < 0.5 ? pickOne(random, now.unchecked).content : 'not sure' };
      await room.handle({ type: 'widget_response', payload: { widgetId: widget.widgetId, response } }, heard.listener);
    } else {
      const roll = random.next();
      let message: string;
      if (roll < 0.3) message = pickOne(random, MISSES);
      else if (roll < 0.55) {
        asked = true;
        questions += 1;
        message = random.next() < 0.3 ? pickOne(random, CONTINUATIONS) : pickOne(random, QUESTIONS);
      } else message = pickOne(random, now.unchecked).content.toLowerCase();
      await room.handle({ type: 'chat', payload: { message } }, heard.listener);
    }
    await room.settled();
    now = await check();
    // A question is never graded: nothing recalled, the cue not escalated.
    if (asked && !now.ended && (now.recalled !== before.recalled || now.level !== before.level || now.probe?.id !== before.probe?.id)) {
      questionGraded.push(`seed ${seed} turn ${turns}: recalled ${before.recalled}→${now.recalled}, level ${before.level}→${now.level}`);
    }
  }
  // A learner reconnecting mid-session gets the history and the pending widget: checked too.
  if (!now.ended) {
    const again = recordingListener();
    await room.attach(again.listener);
    for (const event of again.events) spoilers.push(...frameSpoilers(event, now).map((found) => `seed ${seed}, reattach ${event.type}: ${found}`));
    for (const event of again.events) {
      if (event.type !== 'history') continue;
      for (const message of event.payload.messages) if (message.role === 'tutor' && message.widget) spoilers.push(...widgetSpoilers(message.widget, { ...now, level: Math.max(now.level, 2) }).filter((found) => !found.startsWith('multiple choice at cue level')).map((found) => `seed ${seed}, history: ${found}`));
    }
    await room.handle({ type: 'end_session', payload: {} }, heard.listener);
    await room.settled();
  }
  return { spoilers, turns, questions, widgets, levels, questionGraded };
}

describe('offline sessions over generated sets (issue 15)', () => {
  it('no frame gives away a point still to recall, at any cue level or widget; a question is never graded', async () => {
    const seen = { widgets: new Set<string>(), levels: new Set<number>(), turns: 0, questions: 0 };
    const spoilers: string[] = [];
    const graded: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const result = await runSession(seed);
      spoilers.push(...result.spoilers);
      graded.push(...result.questionGraded);
      for (const kind of result.widgets) seen.widgets.add(kind);
      for (const level of result.levels) seen.levels.add(level);
      seen.turns += result.turns;
      seen.questions += result.questions;
    }
    expect(spoilers).toEqual([]);
    expect(graded).toEqual([]);
    // The sessions really went through every cue level, questions and multiple-choice widgets.
    expect([...seen.levels].filter((level) => level >= 2).length).toBeGreaterThan(0);
    expect(seen.levels.has(0) && seen.levels.has(1)).toBe(true);
    expect(seen.widgets.has('multiple_choice')).toBe(true);
    expect(seen.questions).toBeGreaterThan(20);
    expect(seen.turns).toBeGreaterThan(150);
  }, 120_000);
});
