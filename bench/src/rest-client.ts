/**
 * The REST calls the bench needs to set up learners, recall sets and sessions (SPEC §6),
 * against a server child on loopback.
 */
import type { AuthResponse, RecallSetDetail } from '@tutorloop/shared';

/** A 10-point set about one topic; contents about as long as authors write them. */
export const benchPoints = [
  'The inner mitochondrial membrane holds the electron transport chain and ATP synthase.',
  'Electron transport pumps protons into the intermembrane space, building a gradient.',
  'Protons flowing back through ATP synthase turn its rotor and make ATP from ADP.',
  'Oxygen is the final electron acceptor and is reduced to water.',
  'NADH donates electrons at complex I; FADH2 enters at complex II.',
  'Cyanide blocks complex IV, so electron flow and ATP synthesis stop.',
  'Uncouplers let protons leak back, releasing the gradient as heat instead of ATP.',
  'One glucose yields roughly 30 to 32 ATP through aerobic respiration.',
  'Glycolysis happens in the cytosol and produces pyruvate, ATP and NADH.',
  'The citric acid cycle runs in the matrix and yields NADH, FADH2 and CO2.',
] as const;

export interface BenchLearner {
  token: string;
}

async function call<T>(baseUrl: string, method: string, route: string, token: string | null, body: unknown, expected: number): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function createLearner(baseUrl: string, username: string): Promise<BenchLearner> {
  const auth = await call<AuthResponse>(baseUrl, 'POST', '/api/auth/register', null, { username, password: 'correct horse battery staple' }, 201);
  return { token: auth.token };
}

/** A fresh copy of the bench's set: new points, so no card is already scheduled from an earlier run. */
export async function createRecallSet(baseUrl: string, learner: BenchLearner): Promise<string> {
  const set = await call<RecallSetDetail>(
    baseUrl,
    'POST',
    '/api/recall-sets',
    learner.token,
    { name: 'Cellular respiration', points: benchPoints.map((content) => ({ content })) },
    201,
  );
  return set.id;
}

export async function createSession(baseUrl: string, learner: BenchLearner, recallSetId: string): Promise<string> {
  const created = await call<{ sessionId: string }>(baseUrl, 'POST', '/api/sessions', learner.token, { type: 'recall', recallSetId }, 201);
  return created.sessionId;
}

/** A new set and a recall session on it. */
export async function createFreshSession(baseUrl: string, learner: BenchLearner): Promise<string> {
  return createSession(baseUrl, learner, await createRecallSet(baseUrl, learner));
}

/** The WebSocket URL of a session (SPEC §5). */
export function sessionSocketUrl(baseUrl: string, sessionId: string, token: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/sessions/ws/${sessionId}?token=${encodeURIComponent(token)}`;
}
