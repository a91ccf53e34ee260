import {
  ApiErrorBody,
  LearnerResponse,
  type Learner,
  type AuthResponse,
  type BlueprintList,
  type CardList,
  type CreateRecallSetBody,
  type CreateSessionBody,
  type Credentials,
  type HealthResponse,
  type ImportRecallSetBody,
  type RecallSetDetail,
  type RecallSetSummary,
  type SessionDetail,
  type SessionListItem,
  type SessionSummary,
  type UpdateLearnerBody,
  type UpdateRecallSetBody,
} from '@tutorloop/shared';
import { z } from 'zod';

/** A failed request, ready to show: `message` is the server's own wording when it sent one. */
export interface ApiError {
  /** HTTP status, or 0 when the server could not be reached. */
  status: number;
  /** The server's error code (see `ErrorCodes`), or `network` / `http_error` on the client side. */
  code: string;
  message: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/**
 * The shared error body, with the code read leniently: a newer server may add a code this
 * client does not know, and its message must still reach the learner.
 */
const LenientApiErrorBody = z.object({
  error: ApiErrorBody.shape.error.extend({ code: z.string() }),
});

export interface HttpClientOptions {
  /** Prefix of every path; empty for same-origin (`/api/...`). */
  baseUrl?: string;
  /** The current bearer token, read on every request. */
  getToken: () => string | null;
  /** Called when an authenticated request gets 401: the token is no longer valid. */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

interface RequestOptions {
  body?: unknown;
  /** Send the bearer token (and treat 401 as "signed out"). Off for login/register/health. */
  authenticated?: boolean;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** `PATCH /api/me` answers `{ learner }` (shared `LearnerResponse`), checked before use. */
function learnerFrom(value: unknown): Learner | null {
  const parsed = LearnerResponse.safeParse(value);
  return parsed.success ? parsed.data.learner : null;
}

/** A typed wrapper around the REST API (SPEC §6). Never throws: every call returns a result. */
export function createHttpClient(options: HttpClientOptions) {
  const baseUrl = options.baseUrl ?? '';
  const fetchImplementation: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<T>(method: string, path: string, requestOptions: RequestOptions = {}): Promise<ApiResult<T>> {
    const authenticated = requestOptions.authenticated ?? true;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (requestOptions.body !== undefined) headers['Content-Type'] = 'application/json';
    const token = authenticated ? options.getToken() : null;
    if (token) headers.Authorization = `Bearer ${token}`;

    let response: Response;
    try {
      response = await fetchImplementation(`${baseUrl}${path}`, {
        method,
        headers,
        body: requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body),
      });
    } catch {
      return {
        ok: false,
        error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' },
      };
    }

    let data: unknown = undefined;
    const text = response.status === 204 ? '' : await response.text().catch(() => '');
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
    }

    if (!response.ok) {
      // A 401 on login means "wrong password", not "signed out": only a request that carried
      // a token can reveal that the token died.
      if (response.status === 401 && token) options.onUnauthorized?.();
      const parsed = LenientApiErrorBody.safeParse(data);
      return {
        ok: false,
        error: parsed.success
          ? { status: response.status, code: parsed.data.error.code, message: parsed.data.error.message }
          : {
              status: response.status,
              code: 'http_error',
              message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
            },
      };
    }
    return { ok: true, value: data as T };
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    health: () => request<HealthResponse>('GET', '/api/health', { authenticated: false }),

    register: (body: Credentials) =>
      request<AuthResponse>('POST', '/api/auth/register', { body, authenticated: false }),
    login: (body: Credentials) => request<AuthResponse>('POST', '/api/auth/login', { body, authenticated: false }),
    me: () => request<{ learner: Learner }>('GET', '/api/me'),
    /** Saves the learner's settings; the value is the updated learner. */
    updateMe: async (body: UpdateLearnerBody): Promise<ApiResult<Learner>> => {
      const result = await request<unknown>('PATCH', '/api/me', { body });
      if (!result.ok) return result;
      const learner = learnerFrom(result.value);
      return learner
        ? { ok: true, value: learner }
        : { ok: false, error: { status: 200, code: 'http_error', message: 'The server sent an unexpected answer.' } };
    },

    listRecallSets: () => request<{ recallSets: RecallSetSummary[] }>('GET', '/api/recall-sets'),
    getRecallSet: (recallSetId: string) => request<RecallSetDetail>('GET', `/api/recall-sets/${id(recallSetId)}`),
    createRecallSet: (body: CreateRecallSetBody) => request<RecallSetDetail>('POST', '/api/recall-sets', { body }),
    importRecallSet: (body: ImportRecallSetBody) =>
      request<RecallSetDetail>('POST', '/api/recall-sets/import', { body }),
    updateRecallSet: (recallSetId: string, body: UpdateRecallSetBody) =>
      request<RecallSetDetail>('PUT', `/api/recall-sets/${id(recallSetId)}`, { body }),
    deleteRecallSet: (recallSetId: string) => request<void>('DELETE', `/api/recall-sets/${id(recallSetId)}`),
    /** The learner's FSRS state per point of a set (points never reviewed may be absent). */
    listCards: (recallSetId: string) => request<CardList>('GET', `/api/cards?recallSetId=${id(recallSetId)}`),

    listBlueprints: () => request<BlueprintList>('GET', '/api/blueprints'),

    createSession: (body: CreateSessionBody) => request<{ sessionId: string }>('POST', '/api/sessions', { body }),
    listSessions: () => request<{ sessions: SessionListItem[] }>('GET', '/api/sessions'),
    getSession: (sessionId: string) => request<SessionDetail>('GET', `/api/sessions/${id(sessionId)}`),
    getSessionSummary: (sessionId: string) =>
      request<{ summary: SessionSummary }>('GET', `/api/sessions/${id(sessionId)}/summary`),
  };
}
