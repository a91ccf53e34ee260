/**
 * Security headers on every response — API, static assets, the app shell, the API docs page,
 * errors and 404s alike (issue 22; SPEC §8). The Content-Security-Policy is the second line
 * behind the web's Markdown allowlist (web/src/components/markdown-allowlist.ts): whatever
 * slipped through could still load nothing from another origin, post no form elsewhere, run
 * no inline script, and the app cannot be framed.
 *
 * Styles, as checked in Chromium: the app sets every inline style through the CSSOM (React's
 * `style` prop, recharts, and KaTeX's sizes via `applyMathStyles`), which a policy does not
 * restrict, so style attributes are refused outright (`style-src-attr 'none'`). CodeMirror
 * (style-mod) writes its themes into a `<style>` element it creates, so inline style elements
 * are allowed (`style-src-elem 'self' 'unsafe-inline'`); the sanitiser removes any `<style>` an
 * author writes before it reaches the page, and with images, fonts and connections limited to
 * this origin a style cannot send anything anywhere. Browsers without the -elem/-attr
 * directives fall back to `style-src 'self'`: everything works there but CodeMirror's theme.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** `'sha256-…'` sources for the inline `<tag>` elements of an HTML page (for pages that cannot avoid them). */
export function inlineHashes(html: string, tag: 'script' | 'style'): string[] {
  const hashes: string[] = [];
  const close = `</${tag}>`;
  let from = 0;
  for (;;) {
    const open = html.indexOf(`<${tag}>`, from);
    if (open < 0) return hashes;
    const start = open + tag.length + 2;
    const end = html.indexOf(close, start);
    if (end < 0) return hashes;
    hashes.push(`'sha256-${createHash('sha256').update(html.slice(start, end), 'utf8').digest('base64')}'`);
    from = end + close.length;
  }
}

/** A Host header fit to go into the policy (a name or IP literal and a port, nothing that could end a directive). */
const hostPattern = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export interface PolicyOptions {
  /** The request's Host header: the WebSocket endpoint's origin is named from it. */
  host?: string | undefined;
  scriptHashes?: readonly string[];
  styleHashes?: readonly string[];
}

/** The Content-Security-Policy for one response. */
export function contentSecurityPolicy(options: PolicyOptions = {}): string {
  // 'self' covers ws:/wss: to the same host in Chromium and Firefox (CSP3), not in older
  // Safari: the socket's own origin is named too, when the Host header is a plain host.
  const socket = options.host && hostPattern.test(options.host) ? ` ws://${options.host} wss://${options.host}` : '';
  const scripts = options.scriptHashes?.length ? ` ${options.scriptHashes.join(' ')}` : '';
  const styles = options.styleHashes?.length ? ` ${options.styleHashes.join(' ')}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${scripts}`,
    `style-src 'self'${styles}`,
    // A page with hashed styles (the docs) needs no 'unsafe-inline' (a hash would void it anyway).
    `style-src-elem 'self'${styles || " 'unsafe-inline'"}`,
    "style-src-attr 'none'",
    "img-src 'self' data:",
    // Vite inlines the smallest KaTeX fonts into its stylesheet as data: URLs.
    "font-src 'self' data:",
    `connect-src 'self'${socket}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every response carries besides the policy. */
export const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

// The API docs page (openapi-routes.ts) renders with one inline <script> and one <style>:
// allowed by their hashes on that page only, computed from the file the route serves.
const docsPage = readFileSync(new URL('./openapi-docs.html', import.meta.url), 'utf8');
const docsHashes = { scriptHashes: inlineHashes(docsPage, 'script'), styleHashes: inlineHashes(docsPage, 'style') };

/**
 * Adds the headers to every response of `app`. Set on the Node response as the request
 * arrives, not in a Fastify hook: the router answers an unreadable URL (`frameworkErrors`)
 * without running any hook, and headers set here still reach that answer. Fastify merges them
 * into whatever it writes.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const docs = request.url?.split('?')[0] === '/api/docs' ? docsHashes : {};
    response.setHeader('content-security-policy', contentSecurityPolicy({ host: request.headers.host, ...docs }));
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
  });
}
