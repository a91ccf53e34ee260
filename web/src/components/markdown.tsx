import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

// Links in tutor messages open in a new tab and never get the opener.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Renders tutor text as Markdown; the HTML is sanitized by DOMPurify before it reaches the DOM. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(
    () => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true })),
    [text],
  );
  return <div className={className ? `markdown ${className}` : 'markdown'} dangerouslySetInnerHTML={{ __html: html }} />;
}
