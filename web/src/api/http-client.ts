import {
  AccountImportResult,
  ApiErrorBody,
  LearnerResponse,
  ProgressStats,
  ProposeDocumentEvent,
  ProposeDocumentResponse,
  documentProgressMediaType,
  RunExamplesResponse,
  SchedulerStatus,
  SimulationResponse,
  type Learner,
  type SimulateBody,
  type AuthResponse,
  type BlueprintList,
  type CardList,
  type CreateRecallSetBody,
  type CreateSessionBody,
  type Credentials,
  type HealthResponse,
  type ImportRecallSetBody,
  type ChangePasswordBody,
  type DeleteAccountBody,
  type ExportFormat,
  type ImportPreview,
  type ImportSourceBody,
  type ProposeDocumentBody,
  type RecallSetDetail,
  type RecallSetSummary,
  type RunExamplesBody,
  type SessionDetail,
  type SessionHistory,
  type SubtopicProgress,
  type SessionListItem,
  type SessionSummary,
  type StudyPlanDetail,
  type StudyPlanImportBody,
  type StudyPlanList,
  type SurveyList,
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
  /** Cancels the request; it then ends as the error `aborted`, never as a network failure. */
  signal?: AbortSignal;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/**
 * Body of `POST /api/study-plans` and `PUT /api/study-plans/{id}` as an author's editor sends
 * it: the plan is whatever was written, validated by the server against the shared
 * `StudyPlanBody`, whose problems come back as `field: message`.
 */
export interface StudyPlanDraftBody {
  plan: unknown;
  shared: boolean;
}

/** `PATCH /api/me` answers `{ learner }` (shared `LearnerResponse`), checked before use. */
function learnerFrom(value: unknown): Learner | null {
  const parsed = LearnerResponse.safeParse(value);
  return parsed.success ? parsed.data.learner : null;
}

/** A 2xx answer that does not match the shared schema (a server of another version). */
const unexpectedAnswer: ApiError = { status: 200, code: 'http_error', message: 'The server sent an unexpected answer.' };

/** Checks a successful answer against its shared zod schema (unknown fields pass, as everywhere in the client). */
function parsedWith<T>(schema: z.ZodType<T>, result: ApiResult<unknown>): ApiResult<T> {
  if (!result.ok) return result;
  const parsed = schema.safeParse(result.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: unexpectedAnswer };
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
        ...(requestOptions.signal && { signal: requestOptions.signal }),
      });
    } catch {
      // The learner cancelled: not a connection problem, so nothing to tell them about.
      if (requestOptions.signal?.aborted) return { ok: false, error: { status: 0, code: 'aborted', message: 'Cancelled.' } };
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

  /**
   * `POST /api/documents/propose` with progress: the server answers NDJSON lines (SPEC §4.7), a
   * `progress` line per PDF page read, then the `result` or an `error`. A refusal before reading
   * (a bad body, too many documents) is a JSON error, read as `request` reads one.
   */
  async function proposeWithProgress(body: ProposeDocumentBody, signal: AbortSignal | undefined, onProgress: (pagesDone: number, pages: number) => void): Promise<ApiResult<ProposeDocumentResponse>> {
    const token = options.getToken();
    const aborted: ApiResult<never> = { ok: false, error: { status: 0, code: 'aborted', message: 'Cancelled.' } };
    const lost: ApiResult<never> = { ok: false, error: { status: 0, code: 'network', message: 'The connection to the server was lost. Try again.' } };
    let response: Response;
    try {
      response = await fetchImplementation(`${baseUrl}/api/documents/propose`, {
        method: 'POST',
        headers: { Accept: `${documentProgressMediaType}, application/json`, 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
        ...(signal && { signal }),
      });
    } catch {
      return signal?.aborted ? aborted : { ok: false, error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' } };
    }
    if (!response.ok || !response.body || !(response.headers.get('content-type') ?? '').startsWith(documentProgressMediaType)) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      const data: unknown = await response.json().catch(() => undefined);
      if (response.ok) return parsedWith(ProposeDocumentResponse, { ok: true, value: data });
      const parsed = LenientApiErrorBody.safeParse(data);
      return { ok: false, error: parsed.success ? { status: response.status, ...parsed.data.error } : { status: response.status, code: 'http_error', message: `The server answered ${response.status}.` } };
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return lost;
        buffered += value;
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf('\n');
          let parsed: ReturnType<typeof ProposeDocumentEvent.safeParse>;
          try {
            parsed = ProposeDocumentEvent.safeParse(JSON.parse(line));
          } catch {
            return { ok: false, error: unexpectedAnswer };
          }
          if (!parsed.success) return { ok: false, error: unexpectedAnswer };
          const event = parsed.data;
          if (event.type === 'progress') onProgress(event.pagesDone, event.pages);
          else if (event.type === 'result') return { ok: true, value: event.result };
          else return { ok: false, error: { status: response.status, ...event.error } };
        }
      }
    } catch {
      return signal?.aborted ? aborted : lost;
    } finally {
      void reader.cancel().catch(() => {});
    }
  }

  /** A file the server sends as an attachment, with the name it gives it. */
  async function download(path: string): Promise<ApiResult<{ blob: Blob; filename: string }>> {
    const token = options.getToken();
    let response: Response;
    try {
      response = await fetchImplementation(`${baseUrl}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    } catch {
      return { ok: false, error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' } };
    }
    if (!response.ok) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      const parsed = LenientApiErrorBody.safeParse(await response.json().catch(() => undefined));
      return {
        ok: false,
        error: parsed.success
          ? { status: response.status, code: parsed.data.error.code, message: parsed.data.error.message }
          : { status: response.status, code: 'http_error', message: `The server answered ${response.status}.` },
      };
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
    const filename = encoded ? decodeURIComponent(encoded) : (plain ?? 'download');
    return { ok: true, value: { blob: await response.blob(), filename } };
  }

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

    /** The learner's FSRS parameters, their metrics, the optimiser's state and recent runs (issue 17). */
    getScheduler: async () => parsedWith(SchedulerStatus, await request<unknown>('GET', '/api/me/scheduler')),
    /** Queues an optimisation of the learner's parameters (202); 409 with the reason below the minimum of reviews. */
    optimizeScheduler: async () => parsedWith(SchedulerStatus, await request<unknown>('POST', '/api/me/scheduler/optimize')),
    /** Reviews per day and knowledge kept at each desired retention, under the learner's parameters. */
    simulateScheduler: async (body: SimulateBody) =>
      parsedWith(SimulationResponse, await request<unknown>('POST', '/api/me/scheduler/simulate', { body })),

    listRecallSets: () => request<{ recallSets: RecallSetSummary[] }>('GET', '/api/recall-sets'),
    getRecallSet: (recallSetId: string) => request<RecallSetDetail>('GET', `/api/recall-sets/${id(recallSetId)}`),
    createRecallSet: (body: CreateRecallSetBody) => request<RecallSetDetail>('POST', '/api/recall-sets', { body }),
    importRecallSet: (body: ImportRecallSetBody) =>
      request<RecallSetDetail>('POST', '/api/recall-sets/import', { body }),
    /** What importing would create and skip, and why; nothing is stored (issue 18). */
    previewImport: (body: ImportSourceBody) => request<ImportPreview>('POST', '/api/recall-sets/import/preview', { body }),
    /** Creates the set a preview showed: Markdown, CSV, Anki text or an .apkg (base64). */
    importFromSource: (body: ImportSourceBody) => request<RecallSetDetail>('POST', '/api/recall-sets/import/file', { body }),
    /**
     * Proposed recall points of a PDF or pasted text (SPEC §4.7); nothing is stored. `signal` cancels
     * the reading (the server stops it); `onProgress` hears of each page read as it is read.
     */
    proposeDocument: async (body: ProposeDocumentBody, signal?: AbortSignal, onProgress?: (pagesDone: number, pages: number) => void) =>
      onProgress
        ? proposeWithProgress(body, signal, onProgress)
        : parsedWith(ProposeDocumentResponse, await request<unknown>('POST', '/api/documents/propose', { body, ...(signal && { signal }) })),
    /** A set as CSV or Anki text, ready to save. */
    exportRecallSet: (recallSetId: string, format: ExportFormat) => download(`/api/recall-sets/${id(recallSetId)}/export?format=${format}`),

    /** A new password (the current one required); every other device is signed out, this one gets a new token. */
    changePassword: (body: ChangePasswordBody) => request<AuthResponse>('POST', '/api/me/password', { body }),
    /** Refuses every token issued so far, this one included. */
    signOutEverywhere: () => request<void>('POST', '/api/me/sign-out-everywhere'),
    /** Everything the server keeps about the learner, as a JSON file. */
    exportMyData: () => download('/api/me/export'),
    /** Restores an export (the parsed JSON file) into this account, everything with new ids; the value counts what was added. */
    restoreMyData: async (data: unknown) => parsedWith(AccountImportResult, await request<unknown>('POST', '/api/me/import', { body: data })),
    /** Deletes the account and all its data once the username is typed. */
    deleteAccount: (body: DeleteAccountBody) => request<void>('DELETE', '/api/me', { body }),
    updateRecallSet: (recallSetId: string, body: UpdateRecallSetBody) =>
      request<RecallSetDetail>('PUT', `/api/recall-sets/${id(recallSetId)}`, { body }),
    deleteRecallSet: (recallSetId: string) => request<void>('DELETE', `/api/recall-sets/${id(recallSetId)}`),
    /** The learner's FSRS state per point of a set (points never reviewed may be absent). */
    listCards: (recallSetId: string) => request<CardList>('GET', `/api/cards?recallSetId=${id(recallSetId)}`),

    listBlueprints: () => request<BlueprintList>('GET', '/api/blueprints'),

    /** The plans the learner may use: their own, shared ones and the built-in ones (SPEC §4.4). */
    listStudyPlans: () => request<StudyPlanList>('GET', '/api/study-plans'),
    getStudyPlan: (studyPlanId: string) => request<StudyPlanDetail>('GET', `/api/study-plans/${id(studyPlanId)}`),
    createStudyPlan: (body: StudyPlanDraftBody) => request<StudyPlanDetail>('POST', '/api/study-plans', { body }),
    /** A plan from JSON text or Markdown with front matter; an invalid one is refused with `field: message`. */
    importStudyPlan: (body: StudyPlanImportBody) => request<StudyPlanDetail>('POST', '/api/study-plans/import', { body }),
    updateStudyPlan: (studyPlanId: string, body: StudyPlanDraftBody) =>
      request<StudyPlanDetail>('PUT', `/api/study-plans/${id(studyPlanId)}`, { body }),
    deleteStudyPlan: (studyPlanId: string) => request<void>('DELETE', `/api/study-plans/${id(studyPlanId)}`),

    listSurveys: () => request<SurveyList>('GET', '/api/surveys'),
    createSession: (body: CreateSessionBody) => request<{ sessionId: string }>('POST', '/api/sessions', { body }),
    listSessions: () => request<{ sessions: SessionListItem[] }>('GET', '/api/sessions'),
    /** The learner's figures for the dashboard (SPEC §6 stats), days counted in `timeZone`; checked against the shared schema. */
    getStats: async (timeZone: string) => parsedWith(ProgressStats, await request<unknown>('GET', `/api/sessions/stats?timeZone=${encodeURIComponent(timeZone)}`)),
    /** The newest sessions of every type, `limit` of them. */
    getRecentSessions: (limit: number) => request<SessionHistory>('GET', `/api/sessions/history?limit=${limit}`),
    getSubtopicProgress: () => request<SubtopicProgress>('GET', '/api/sessions/subtopic-progress'),
    getSession: (sessionId: string) => request<SessionDetail>('GET', `/api/sessions/${id(sessionId)}`),
    getSessionSummary: (sessionId: string) =>
      request<{ summary: SessionSummary }>('GET', `/api/sessions/${id(sessionId)}/summary`),
    /** Runs code on a pending code item's visible examples (issue 25): not an answer, nothing is stored. */
    runExamples: async (sessionId: string, widgetId: string, body: RunExamplesBody) =>
      parsedWith(RunExamplesResponse, await request<unknown>('POST', `/api/sessions/${id(sessionId)}/items/${id(widgetId)}/run-examples`, { body })),
  };
}
