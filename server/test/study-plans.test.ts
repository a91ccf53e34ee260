/**
 * Study plans (SPEC §4.4, §6) and a session's agent logs, against the real server on loopback
 * with a temporary SQLite file: CRUD, JSON and Markdown import, refusals with `field: message`
 * that store nothing, who may read and write what, and the three built-in plans.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentLogList, StudyPlanDetail, StudyPlanList, type StudyPlanContent } from '@tutorloop/shared';
import { startTestServer, type TestServer } from './helpers/test-server';

const studyPlanDir = fileURLToPath(new URL('../study-plans/', import.meta.url));
const shippedFile = (name: string) => readFileSync(path.join(studyPlanDir, name), 'utf8');
const builtInIds = ['carrying-and-borrowing', 'ipv4-subnetting', 'python-strings'];
const knownSkills =
  'MATH.ARITH.ADD.2DIGIT, MATH.ARITH.DIV.EXACT, MATH.ARITH.MUL.BASIC, MATH.ARITH.SUB.2DIGIT, NET.IPV4.SUBNET.BROADCAST, NET.IPV4.SUBNET.NETWORK, PROG.PYTHON.STRING.COUNT, PROG.PYTHON.STRING.LEN';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function fractionsPlan(title = 'Fractions as division'): StudyPlanContent {
  return {
    title,
    topic: 'Fractions',
    audience: 'Grade 5',
    objectives: ['Read a fraction as a division', 'Divide exactly by a single digit'],
    prerequisites: ['Times tables'],
    misconceptions: [{ concept: 'fractions', description: 'Reads 3/4 as "3 out of 4 pieces" only, never as 3 ÷ 4' }],
    teachingApproach: 'Sharing pizzas among friends, then the written division.',
    allowExtension: false,
    allowBacktrack: false,
    steps: [
      { number: 1, type: 'explain', concept: 'fractions', contentHint: 'A fraction a/b is a divided by b: 12/4 means 12 ÷ 4 = 3.' },
      {
        number: 2,
        type: 'check',
        concept: 'fractions',
        contentHint: 'Check reading a fraction as a division.',
        questions: [{ question: 'What is 12/4 as a whole number?', expectedAnswer: '3', acceptedAnswers: ['three'] }],
      },
      { number: 3, type: 'practice', concept: 'division', contentHint: 'Exact divisions by one digit.', skillBlueprintId: 'MATH.ARITH.DIV.EXACT', items: 2 },
    ],
  };
}

async function createPlan(token: string, plan: StudyPlanContent = fractionsPlan(), shared = false): Promise<StudyPlanDetail> {
  const response = await server.api<StudyPlanDetail>('POST', '/api/study-plans', { token, body: { plan, shared } });
  if (response.status !== 201) throw new Error(`createPlan failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

async function listIds(token: string): Promise<string[]> {
  const response = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
  expect(StudyPlanList.safeParse(response.body).success).toBe(true);
  return response.body.studyPlans.map((plan) => plan.id);
}

/** The caller's own plans and the built-in ones, in list order (other learners' shared plans left out: tests share the server). */
async function ownAndBuiltInIds(token: string): Promise<string[]> {
  const response = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
  return response.body.studyPlans.filter((plan) => plan.owned || plan.builtIn).map((plan) => plan.id);
}

const invalid = (message: string) => ({ status: 400, body: { error: { code: 'invalid_payload', message } } });

describe('built-in study plans', () => {
  it('are listed for every learner, shared, not owned, each a valid plan of 6–10 steps mixing explain, check and practice', async () => {
    const { token } = await server.register();
    const list = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
    expect(list.status).toBe(200);
    const builtIns = list.body.studyPlans.filter((plan) => plan.builtIn);
    expect(builtIns.map((plan) => plan.id).sort()).toEqual(builtInIds);
    for (const summary of builtIns) {
      expect(summary).toMatchObject({ shared: true, owned: false, builtIn: true });
      const detail = await server.api<StudyPlanDetail>('GET', `/api/study-plans/${summary.id}`, { token });
      expect(detail.status).toBe(200);
      expect(StudyPlanDetail.parse(detail.body)).toEqual(detail.body);
      const { steps } = detail.body.plan;
      expect(steps.length).toBeGreaterThanOrEqual(6);
      expect(steps.length).toBeLessThanOrEqual(10);
      expect(new Set(steps.map((step) => step.type))).toEqual(new Set(['explain', 'check', 'practice']));
      expect(summary).toMatchObject({ stepCount: steps.length, title: detail.body.plan.title, concepts: [...new Set(steps.map((step) => step.concept))] });
    }
  });

  it('cannot be changed or deleted by anyone (403), and stay as shipped', async () => {
    const { token } = await server.register();
    const before = await server.api<StudyPlanDetail>('GET', '/api/study-plans/ipv4-subnetting', { token });
    const put = await server.api('PUT', '/api/study-plans/ipv4-subnetting', { token, body: { plan: fractionsPlan(), shared: true } });
    expect(put).toEqual({ status: 403, body: { error: { code: 'forbidden', message: 'Built-in study plans cannot be changed; import a copy to edit it.' } } });
    expect((await server.api('DELETE', '/api/study-plans/ipv4-subnetting', { token })).status).toBe(403);
    expect(await server.api('GET', '/api/study-plans/ipv4-subnetting', { token })).toEqual(before);
  });

  it('are the shipped files: importing the same Markdown or JSON gives the same plan', async () => {
    const { token } = await server.register();
    for (const [id, format, file] of [
      ['ipv4-subnetting', 'markdown', 'ipv4-subnetting.md'],
      ['carrying-and-borrowing', 'markdown', 'carrying-and-borrowing.md'],
      ['python-strings', 'json', 'python-strings.json'],
    ] as const) {
      const builtIn = await server.api<StudyPlanDetail>('GET', `/api/study-plans/${id}`, { token });
      const imported = await server.api<StudyPlanDetail>('POST', '/api/study-plans/import', { token, body: { format, text: shippedFile(file) } });
      expect(imported.status).toBe(201);
      expect(imported.body.plan).toEqual(builtIn.body.plan);
      expect(imported.body).toMatchObject({ owned: true, builtIn: false, shared: false });
    }
  });
});

describe('study plan CRUD', () => {
  it('creates, lists, reads, replaces and deletes a plan', async () => {
    const { token } = await server.register();
    const created = await server.api<StudyPlanDetail>('POST', '/api/study-plans', { token, body: { plan: fractionsPlan() } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      title: 'Fractions as division',
      topic: 'Fractions',
      audience: 'Grade 5',
      stepCount: 3,
      concepts: ['fractions', 'division'],
      shared: false,
      owned: true,
      builtIn: false,
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      plan: fractionsPlan(),
    });
    const { id } = created.body;
    // The learner's own plans come first, the built-in ones last.
    expect(await ownAndBuiltInIds(token)).toEqual([id, ...builtInIds]);
    expect(await server.api('GET', `/api/study-plans/${id}`, { token })).toEqual({ status: 200, body: created.body });

    const revised = { ...fractionsPlan('Fractions, revised'), allowExtension: true };
    const updated = await server.api<StudyPlanDetail>('PUT', `/api/study-plans/${id}`, { token, body: { plan: revised, shared: true } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, title: 'Fractions, revised', shared: true, owned: true, createdAt: created.body.createdAt, plan: revised });
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.createdAt));
    expect((await server.api<StudyPlanDetail>('GET', `/api/study-plans/${id}`, { token })).body).toEqual(updated.body);

    expect(await server.api('DELETE', `/api/study-plans/${id}`, { token })).toEqual({ status: 204, body: null });
    expect(await server.api('GET', `/api/study-plans/${id}`, { token })).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'No study plan with that id.' } } });
    expect((await server.api('DELETE', `/api/study-plans/${id}`, { token })).status).toBe(404);
    expect(await ownAndBuiltInIds(token)).toEqual(builtInIds);
  });

  it('imports a plan written in Markdown with front matter, shared when asked', async () => {
    const { token } = await server.register();
    const text = [
      '---',
      'title: Dividing exactly',
      'topic: Division',
      'audience: Grade 4',
      'objectives:',
      '  - Divide a two-digit number by one digit',
      'teachingApproach: Sharing sweets fairly.',
      '---',
      '',
      '## 1. explain: division',
      '',
      '36 ÷ 4 asks how many fours make 36: 9, because 9 × 4 = 36.',
      '',
      '## 2. check: division',
      '',
      'Ask for one exact division.',
      '',
      '- Q: What is 36 ÷ 4?',
      '  A: 9',
      '  Also: nine',
      '',
      '## 3. practice: division',
      '',
      'blueprint: MATH.ARITH.DIV.EXACT',
      '',
      'Fresh divisions.',
    ].join('\n');
    const imported = await server.api<StudyPlanDetail>('POST', '/api/study-plans/import', { token, body: { format: 'markdown', text, shared: true } });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ title: 'Dividing exactly', shared: true, owned: true, builtIn: false, stepCount: 3, concepts: ['division'] });
    expect(imported.body.plan.steps).toEqual([
      { number: 1, type: 'explain', concept: 'division', contentHint: '36 ÷ 4 asks how many fours make 36: 9, because 9 × 4 = 36.' },
      { number: 2, type: 'check', concept: 'division', contentHint: 'Ask for one exact division.', questions: [{ question: 'What is 36 ÷ 4?', expectedAnswer: '9', acceptedAnswers: ['nine'] }] },
      { number: 3, type: 'practice', concept: 'division', contentHint: 'Fresh divisions.', skillBlueprintId: 'MATH.ARITH.DIV.EXACT', items: 1 },
    ]);
    expect((await server.api<StudyPlanDetail>('GET', `/api/study-plans/${imported.body.id}`, { token })).body).toEqual(imported.body);
  });

  it('refuses invalid plans with field: message lines and stores nothing', async () => {
    const { token } = await server.register();
    const kept = await createPlan(token);
    const noQuestions = { ...fractionsPlan(), steps: [fractionsPlan().steps[0], { number: 2, type: 'check', concept: 'fractions', contentHint: 'x', questions: [] }] };
    expect(await server.api('POST', '/api/study-plans', { token, body: { plan: noQuestions } })).toEqual(invalid('plan.steps.1.questions: a check step needs at least one question'));
    const unknownSkill = { ...fractionsPlan(), steps: [...fractionsPlan().steps.slice(0, 2), { ...fractionsPlan().steps[2]!, skillBlueprintId: 'MATH.FRACTIONS' }] };
    expect(await server.api('POST', '/api/study-plans', { token, body: { plan: unknownSkill } })).toEqual(
      invalid(`plan.steps.2.skillBlueprintId: unknown skill blueprint "MATH.FRACTIONS" (known: ${knownSkills})`),
    );
    const { topic: _topic, ...noTopic } = fractionsPlan();
    expect(await server.api('POST', '/api/study-plans', { token, body: { plan: { ...noTopic, title: '', steps: [{ ...fractionsPlan().steps[0], type: 'lecture' }] }, colour: 'red' } })).toEqual(
      invalid('plan.title: is empty; plan.topic: is missing; plan.steps.0.type: must be one of explain, check, practice; colour: is not a field here'),
    );
    expect(await server.api('POST', '/api/study-plans', { token, body: { plan: { ...fractionsPlan(), steps: [{ ...fractionsPlan().steps[0], number: 2 }] } } })).toEqual(
      invalid('plan.steps.0.number: must be 1: steps are numbered 1..N in order'),
    );
    expect(await server.api('POST', '/api/study-plans', { token, body: [] })).toEqual(invalid('body: expected object, received array'));

    const markdown = shippedFile('carrying-and-borrowing.md').replace('  A: 84\n', '');
    const answerLine = markdown.split('\n').findIndex((line) => line.includes('- Q: What is 46 + 38?')) + 1;
    expect(await server.api('POST', '/api/study-plans/import', { token, body: { format: 'markdown', text: markdown } })).toEqual(
      invalid(`steps.3.questions.0.expectedAnswer: is missing; write it on an "A:" line under the question (line ${answerLine})`),
    );
    const brokenJson = await server.api('POST', '/api/study-plans/import', { token, body: { format: 'json', text: '{"title": "x",' } });
    expect(brokenJson.status).toBe(400);
    expect(brokenJson.body).toMatchObject({ error: { code: 'invalid_payload', message: expect.stringMatching(/^text: not valid JSON \(/) } });
    expect(await server.api('POST', '/api/study-plans/import', { token, body: { format: 'json', text: JSON.stringify({ ...fractionsPlan(), objectives: [] }) } })).toEqual(
      invalid('objectives: a plan needs at least one learning objective'),
    );
    expect(await server.api('POST', '/api/study-plans/import', { token, body: { format: 'yaml', text: 'x' } })).toMatchObject({ status: 400 });

    // A refused replacement leaves the plan as it was.
    expect((await server.api('PUT', `/api/study-plans/${kept.id}`, { token, body: { plan: unknownSkill, shared: true } })).status).toBe(400);
    expect((await server.api<StudyPlanDetail>('GET', `/api/study-plans/${kept.id}`, { token })).body).toEqual(kept);
    expect(await ownAndBuiltInIds(token)).toEqual([kept.id, ...builtInIds]);
  });
});

describe('who may read and write a plan', () => {
  it('hides a private plan from other learners (404), shows a shared one read-only (403 on writes), and hides it again when unshared', async () => {
    const author = await server.register();
    const other = await server.register();
    const plan = await createPlan(author.token);
    const url = `/api/study-plans/${plan.id}`;
    const notFound = { status: 404, body: { error: { code: 'not_found', message: 'No study plan with that id.' } } };
    expect(await server.api('GET', url, { token: other.token })).toEqual(notFound);
    expect(await server.api('PUT', url, { token: other.token, body: { plan: fractionsPlan('Taken over') } })).toEqual(notFound);
    expect(await server.api('DELETE', url, { token: other.token })).toEqual(notFound);
    expect(await listIds(other.token)).not.toContain(plan.id);

    await server.api('PUT', url, { token: author.token, body: { plan: fractionsPlan(), shared: true } });
    const seen = await server.api<StudyPlanDetail>('GET', url, { token: other.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: plan.id, shared: true, owned: false, builtIn: false, plan: fractionsPlan() });
    expect(await listIds(other.token)).toContain(plan.id);
    const forbidden = { status: 403, body: { error: { code: 'forbidden', message: 'Only the author of a study plan can change or delete it.' } } };
    expect(await server.api('PUT', url, { token: other.token, body: { plan: fractionsPlan('Taken over'), shared: true } })).toEqual(forbidden);
    expect(await server.api('DELETE', url, { token: other.token })).toEqual(forbidden);
    expect((await server.api<StudyPlanDetail>('GET', url, { token: author.token })).body.title).toBe('Fractions as division');

    await server.api('PUT', url, { token: author.token, body: { plan: fractionsPlan() } });
    expect((await server.api('GET', url, { token: other.token })).status).toBe(404);
    expect(await listIds(other.token)).not.toContain(plan.id);
  });

  it('requires a token', async () => {
    for (const [method, route] of [['GET', '/api/study-plans'], ['POST', '/api/study-plans'], ['GET', '/api/study-plans/ipv4-subnetting'], ['POST', '/api/study-plans/import']] as const) {
      expect((await server.api(method, route)).status).toBe(401);
    }
  });
});

describe('agent logs', () => {
  it('are the session owner’s only: 403 for another learner, 404 for an unknown session, entries in order; they go with the session', async () => {
    const owner = await server.register();
    const other = await server.register();
    const set = await server.createSet(owner.token, ['water boils at 100 degrees']);
    const sessionId = await server.createSession(owner.token, set.id);
    const url = `/api/sessions/${sessionId}/agent-logs`;
    expect(await server.api('GET', url, { token: owner.token })).toEqual({ status: 200, body: { entries: [] } });
    expect(await server.api('GET', url, { token: other.token })).toEqual({ status: 403, body: { error: { code: 'forbidden', message: 'This session belongs to another learner.' } } });
    expect(await server.api('GET', '/api/sessions/no-such-session/agent-logs', { token: owner.token })).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No session with that id.' } },
    });
    expect((await server.api('GET', url)).status).toBe(401);

    // Entries as the learning engine writes them, through the server's own storage port.
    const at = new Date('2026-03-01T10:00:00.000Z');
    await server.server.storage.transaction(async (tx) => {
      await tx.agentLogs.append({
        id: 'log-1',
        sessionId,
        learnerId: owner.learner.id,
        turn: 1,
        agent: 'safety',
        inputSummary: 'learner message (27 chars)',
        output: { safe: true, category: null, guidance: null },
        latencyMs: 120,
        tokensIn: 210,
        tokensOut: 12,
        outcome: 'ok',
        createdAt: at,
      });
      await tx.agentLogs.append({
        id: 'log-2',
        sessionId,
        learnerId: owner.learner.id,
        turn: 1,
        agent: 'master_tutor',
        inputSummary: 'step 2 of 8 (check: place value), question open',
        output: null,
        latencyMs: null,
        tokensIn: null,
        tokensOut: null,
        outcome: 'fallback',
        createdAt: at,
      });
    });
    const logs = await server.api<AgentLogList>('GET', url, { token: owner.token });
    expect(AgentLogList.parse(logs.body)).toEqual(logs.body);
    expect(logs.body).toEqual({
      entries: [
        {
          id: 'log-1',
          sessionId,
          seq: 1,
          turn: 1,
          agent: 'safety',
          inputSummary: 'learner message (27 chars)',
          output: { safe: true, category: null, guidance: null },
          latencyMs: 120,
          tokensIn: 210,
          tokensOut: 12,
          outcome: 'ok',
          createdAt: at.toISOString(),
        },
        {
          id: 'log-2',
          sessionId,
          seq: 2,
          turn: 1,
          agent: 'master_tutor',
          inputSummary: 'step 2 of 8 (check: place value), question open',
          output: null,
          latencyMs: null,
          tokensIn: null,
          tokensOut: null,
          outcome: 'fallback',
          createdAt: at.toISOString(),
        },
      ],
    });
    expect((await server.api('GET', url, { token: other.token })).status).toBe(403);

    expect((await server.api('DELETE', `/api/sessions/${sessionId}`, { token: owner.token })).status).toBe(204);
    expect((await server.api('GET', url, { token: owner.token })).status).toBe(404);
    expect(await server.server.storage.read((reader) => reader.agentLogs.listForSession(sessionId))).toEqual([]);
  });
});
