import DOMPurify from 'dompurify';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { markdownNeeds, markdownToHtml, type MarkdownRenderers } from './markdown-render';

// Links in chat messages open in a new tab and never get the opener.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

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
 * code blocks; the HTML is sanitised by DOMPurify before it reaches the DOM, KaTeX's output
 * included.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const needs = useMemo(() => markdownNeeds(text), [text]);
  const loaded = useSyncExternalStore(subscribe, () => renderers);
  useEffect(() => {
    if (needs.math) loadMath();
    if (needs.code) loadHighlight();
  }, [needs.math, needs.code]);
  const html = useMemo(() => DOMPurify.sanitize(markdownToHtml(text, loaded)), [text, loaded]);
  return <div className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
