/**
 * The HTTP side of a WebSocket upgrade: reading what its URL asks for, and refusing it. An
 * upgrade we will not make is answered with a plain HTTP error in the API's error shape, then
 * its socket is closed (issue 22): a URL that cannot be decoded once left the socket open and
 * silent, its exception escaping the `upgrade` handler.
 */
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@tutorloop/shared';

const sessionPath = /^\/sessions\/ws\/([^/?#]+)$/;

/** What an upgrade URL asks for: a session's socket, nothing we can read, or another path. */
export type UpgradeTarget = { kind: 'session'; sessionId: string; token: string | null } | { kind: 'invalid' } | { kind: 'other' };

export function readUpgradeTarget(rawUrl: string | undefined): UpgradeTarget {
  let url: URL;
  try {
    url = new URL(rawUrl ?? '/', 'http://localhost');
  } catch {
    return { kind: 'invalid' };
  }
  const match = sessionPath.exec(url.pathname);
  if (!match) return { kind: 'other' };
  try {
    return { kind: 'session', sessionId: decodeURIComponent(match[1]!), token: url.searchParams.get('token') };
  } catch {
    // decodeURIComponent throws on bad percent-encoding (`%E0%A4%A`).
    return { kind: 'invalid' };
  }
}

const reasons = { 400: 'Bad Request', 404: 'Not Found' } as const;

/** Writes an HTTP error response on the raw socket, then destroys it once the response is out. */
export function rejectUpgrade(socket: Duplex, status: keyof typeof reasons, code: ErrorCode, message: string): void {
  // A client gone mid-write is nothing to report; without a listener it would be an uncaught error.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ error: { code, message } });
  const head = [`HTTP/1.1 ${status} ${reasons[status]}`, 'Connection: close', 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/** The answer to an upgrade URL that cannot be read (same words as the HTTP router's). */
export function rejectInvalidUpgrade(socket: Duplex): void {
  rejectUpgrade(socket, 400, 'bad_request', 'The URL is not valid (check its percent-encoding).');
}
