import { z } from 'zod';

/**
 * Every error code the server can send, over WebSocket (`error` events) or HTTP
 * (`{error:{code,message}}`). A closed set: clients may switch on it.
 */
export const ErrorCodes = {
  badRequest: 'bad_request',
  invalidJson: 'invalid_json',
  unknownType: 'unknown_type',
  invalidPayload: 'invalid_payload',
  frameTooLarge: 'frame_too_large',
  binaryNotSupported: 'binary_not_supported',
  rateLimited: 'rate_limited',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  sessionEnded: 'session_ended',
  widgetNotPending: 'widget_not_pending',
  turnInProgress: 'turn_in_progress',
  /** A `stop` with no reply in flight (SPEC §5). */
  nothingToStop: 'nothing_to_stop',
  /** A `retry` of a message that is not the last tutor reply, or in a session whose replies cannot be regenerated. */
  nothingToRetry: 'nothing_to_retry',
  llmUnavailable: 'llm_unavailable',
  internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
export const ErrorCodeSchema = z.enum(Object.values(ErrorCodes) as [ErrorCode, ...ErrorCode[]]);

/** The body of every non-2xx HTTP response. */
export const ApiErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
