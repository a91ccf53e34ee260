/** The one error type the HTTP edge turns into `{error:{code,message}}` with a status. */
import type { ErrorCode } from '@tutorloop/shared';

const statusByCode: Partial<Record<ErrorCode, number>> = {
  bad_request: 400,
  invalid_json: 400,
  invalid_payload: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  session_ended: 409,
  widget_not_pending: 409,
  turn_in_progress: 409,
  rate_limited: 429,
  llm_unavailable: 503,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For `rate_limited`: sent as the `Retry-After` header (seconds). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  get status(): number {
    return statusByCode[this.code] ?? 500;
  }
}
