/**
 * The HTTP API of SPEC §6, as the evaluation pipeline uses it: plain `fetch`, every body
 * validated with the shared zod schemas. Failures are values naming the route, the status
 * and the server's `{error:{code,message}}`.
 */
import {
  AgentLogList,
  ApiErrorBody,
  AuthResponse,
  BlueprintList,
  CardList,
  CreateSessionResponse,
  HealthResponse,
  RecallSetDetail,
  StudyPlanDetail,
  StudyPlanList,
  type CreateRecallSetBody,
  type CreateSessionBody,
  type Credentials,
  type ImportRecallSetBody,
  type StudyPlanContentInput,
} from '@tutorloop/shared';
import type { z } from 'zod';

export interface ApiFailure {
  /** `POST /api/sessions` */
  route: string;
  /** HTTP status, or 0 when the server could not be reached or answered garbage. */
  status: number;
  code: string;
  message: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };

/** `POST /api/sessions → 400 invalid_payload: …` */
export function describeApiFailure(failure: ApiFailure): string {
  const status = failure.status === 0 ? 'no answer' : String(failure.status);
  return `${failure.route} → ${status} ${failure.code}: ${failure.message}`;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | null = null,
    private readonly timeoutMs = 30_000,
  ) {}

  /** The same server, authenticated as a learner. */
  withToken(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token, this.timeoutMs);
  }

  health(): Promise<ApiResult<HealthResponse>> {
    return this.request('GET', '/api/health', HealthResponse);
  }

  login(credentials: Credentials): Promise<ApiResult<AuthResponse>> {
    return this.request('POST', '/api/auth/login', AuthResponse, credentials);
  }

  register(credentials: Credentials): Promise<ApiResult<AuthResponse>> {
    return this.request('POST', '/api/auth/register', AuthResponse, credentials);
  }

  /** Logs in; when that fails, registers the learner. */
  async signIn(credentials: Credentials): Promise<ApiResult<AuthResponse & { registered: boolean }>> {
    const login = await this.login(credentials);
    if (login.ok) return { ok: true, value: { ...login.value, registered: false } };
    if (login.error.status === 0) return login;
    const registered = await this.register(credentials);
    if (registered.ok) return { ok: true, value: { ...registered.value, registered: true } };
    return {
      ok: false,
      error: {
        ...registered.error,
        message: `login failed (${login.error.message}) and registering failed (${registered.error.message})`,
      },
    };
  }

  createRecallSet(body: CreateRecallSetBody): Promise<ApiResult<RecallSetDetail>> {
    return this.request('POST', '/api/recall-sets', RecallSetDetail, body);
  }

  importRecallSet(body: ImportRecallSetBody): Promise<ApiResult<RecallSetDetail>> {
    return this.request('POST', '/api/recall-sets/import', RecallSetDetail, body);
  }

  cards(recallSetId: string): Promise<ApiResult<CardList>> {
    return this.request('GET', `/api/cards?recallSetId=${encodeURIComponent(recallSetId)}`, CardList);
  }

  blueprints(): Promise<ApiResult<BlueprintList>> {
    return this.request('GET', '/api/blueprints', BlueprintList);
  }

  studyPlans(): Promise<ApiResult<StudyPlanList>> {
    return this.request('GET', '/api/study-plans', StudyPlanList);
  }

  /** The whole plan, expected answers included (what a plan-following learner reads). */
  studyPlan(id: string): Promise<ApiResult<StudyPlanDetail>> {
    return this.request('GET', `/api/study-plans/${encodeURIComponent(id)}`, StudyPlanDetail);
  }

  createStudyPlan(plan: StudyPlanContentInput): Promise<ApiResult<StudyPlanDetail>> {
    return this.request('POST', '/api/study-plans', StudyPlanDetail, { plan, shared: false });
  }

  /** Every model call of the session (SPEC §4.4 "Agent logs"; the session's owner only). */
  agentLogs(sessionId: string): Promise<ApiResult<AgentLogList>> {
    return this.request('GET', `/api/sessions/${encodeURIComponent(sessionId)}/agent-logs`, AgentLogList);
  }

  createSession(body: CreateSessionBody): Promise<ApiResult<z.infer<typeof CreateSessionResponse>>> {
    return this.request('POST', '/api/sessions', CreateSessionResponse, body);
  }

  /** `ws://…/sessions/ws/{id}?token=…` for this server and learner. */
  socketUrl(sessionId: string): string {
    const url = new URL(`/sessions/ws/${encodeURIComponent(sessionId)}`, this.baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.token) url.searchParams.set('token', this.token);
    return url.toString();
  }

  private async request<Schema extends z.ZodType>(method: string, route: string, schema: Schema, body?: unknown): Promise<ApiResult<z.infer<Schema>>> {
    const where = `${method} ${route.split('?')[0]}`;
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(route, this.baseUrl), {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const { cause } = error as { cause?: { code?: string; message?: string } };
      const detail = cause?.code ?? cause?.message;
      return { ok: false, error: { route: where, status: 0, code: 'unreachable', message: `${(error as Error).message}${detail ? ` (${detail})` : ''}` } };
    }
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // A non-JSON body is reported below with its status.
    }
    if (!response.ok) {
      const apiError = ApiErrorBody.safeParse(data);
      return {
        ok: false,
        error: apiError.success
          ? { route: where, status: response.status, ...apiError.data.error }
          : { route: where, status: response.status, code: 'http_error', message: text.slice(0, 200) || response.statusText },
      };
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: { route: where, status: response.status, code: 'unexpected_body', message: `response does not match the protocol (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})` },
      };
    }
    return { ok: true, value: parsed.data };
  }
}
