import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { applyMathStyles, createMarkdownSanitizer } from './markdown-allowlist';
import { markdownNeeds, type MarkdownRenderers } from './markdown-render';

// Everything this component shows passes the allowlist (markdown-allowlist.ts): a tutor reply
// can carry text from another learner's shared plan or survey.
const sanitizer = createMarkdownSanitizer(window, { origin: window.location.origin });

/**
 * The renderers loaded so far. KaTeX and highlight.js arrive on first use (their own chunks),
 * then every message re-renders with them; until then math shows as its TeX source.
 */
let renderers: MarkdownRenderers = { math: null, highlight: null };
const listeners = new Set<() => void>();
let mathLoad: Promise<void> | null = null;
let highlightLoad: Promise<void> | null = null;

function update(next: Partial<MarkdownRenderers>) {
  renderers = { ...renderers, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function loadMath() {
  // A failed download (offline) leaves the source visible and is tried again by the next message.
  mathLoad ??= import('./markdown-math').then(
    (module) => update({ math: module.renderMath }),
    () => {
      mathLoad = null;
    },
  );
}

function loadHighlight() {
  highlightLoad ??= import('./markdown-highlight').then(
    (module) => update({ highlight: module.highlightCode }),
    () => {
      highlightLoad = null;
    },
  );
}

/**
 * Chat text (tutor and learner alike) as Markdown with math (`$…$`, `$$…$$`) and highlighted
 * code blocks; the HTML passes the content allowlist before it reaches the DOM, KaTeX's
 * output through its own (markdown-allowlist.ts).
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const needs = useMemo(() => markdownNeeds(text), [text]);
  const loaded = useSyncExternalStore(subscribe, () => renderers);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (needs.math) loadMath();
    if (needs.code) loadHighlight();
  }, [needs.math, needs.code]);
  const html = useMemo(() => sanitizer.toSafeHtml(text, loaded), [text, loaded]);
  // KaTeX's sizes and offsets, set before the first paint of the new HTML.
  useLayoutEffect(() => {
    if (container.current) applyMathStyles(container.current);
  }, [html]);
  return <div ref={container} className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
