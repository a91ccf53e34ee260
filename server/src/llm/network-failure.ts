/**
 * Whether an error means the connection failed rather than the response being wrong, for
 * transports of any vendor: undici reports a connection dropped after the headers as
 * "terminated" (caused by a SocketError), so the cause chain has to be read.
 */

const networkFailure = /\b(?:terminated|other side closed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|premature close)\b/i;

/** True when the error (or one of its causes) is a transport failure rather than a bad response. */
export function isNetworkFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (current.name === 'SocketError' || (typeof code === 'string' && networkFailure.test(code)) || networkFailure.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
