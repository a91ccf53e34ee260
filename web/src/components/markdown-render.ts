import { Marked, type Tokens, type TokenizerAndRendererExtension } from 'marked';

/**
 * Markdown → HTML for the chat (issue 18 "Reading replies"), before sanitising: GitHub
 * Markdown, math (`$…$` inline, `$$…$$` display) and fenced code. Math and highlighting are
 * done by renderers loaded lazily (KaTeX, highlight.js); until they arrive, math shows as its
 * TeX source and code as plain text, so nothing waits on a download. Pure (no DOM), so the
 * rules below are unit-tested; `markdown.tsx` sanitises the result with DOMPurify.
 */

/** Renders TeX to HTML (KaTeX); never throws — a bad formula comes back as an error span. */
export type MathRenderer = (tex: string, display: boolean) => string;
/** Highlights code of a language it knows; null for a language it does not. */
export type CodeHighlighter = (code: string, language: string) => string | null;

export interface MarkdownRenderers {
  math: MathRenderer | null;
  highlight: CodeHighlighter | null;
}

/** What a text needs beyond Markdown, so only the renderers it uses are fetched. */
export interface MarkdownNeeds {
  math: boolean;
  code: boolean;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character]!);
}

/** `$$ … $$` on its own (possibly over several lines) at the start of a block. */
const blockMath = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/;
/** `$$ … $$` inside a line. */
const inlineDisplayMath = /^\$\$((?:\\[\s\S]|[^\\$])+?)\$\$/;
/**
 * `$…$`: no space just inside either dollar, and no digit right after the closing one, so
 * prices ("$5 and $10", "costs $3.50") stay text, as in Pandoc.
 */
const inlineMath = /^\$(?![\s$])((?:\\[\s\S]|[^\\$\n])*?[^\\\s$])\$(?!\d)/;
const singleCharacterMath = /^\$([^\s\\$])\$(?!\d)/;

interface MathToken extends Tokens.Generic {
  type: 'blockMath' | 'inlineMath';
  tex: string;
  display: boolean;
}

function mathHtml(renderers: MarkdownRenderers, tex: string, display: boolean): string {
  const source = tex.trim();
  if (renderers.math) {
    const html = renderers.math(source, display);
    // A wide formula scrolls inside its message, reachable by keyboard.
    return display ? `<span class="math-scroll" tabindex="0">${html}</span>` : html;
  }
  // Shown as its source until KaTeX has loaded (a moment), and marked for the re-render.
  const tag = display ? 'div' : 'span';
  return `<${tag} class="math-source${display ? ' math-display' : ''}">${escapeHtml(display ? `$$${source}$$` : `$${source}$`)}</${tag}>`;
}

function mathExtensions(renderers: MarkdownRenderers): TokenizerAndRendererExtension[] {
  return [
    {
      name: 'blockMath',
      level: 'block',
      start: (source: string) => source.match(/(^|\n) {0,3}\$\$/)?.index,
      tokenizer(source: string) {
        const match = blockMath.exec(source);
        if (!match) return undefined;
        return { type: 'blockMath', raw: match[0], tex: match[1]!, display: true } satisfies MathToken;
      },
      renderer: (token) => `${mathHtml(renderers, (token as MathToken).tex, true)}\n`,
    },
    {
      name: 'inlineMath',
      level: 'inline',
      start: (source: string) => {
        const index = source.indexOf('$');
        return index < 0 ? undefined : index;
      },
      tokenizer(source: string) {
        const display = inlineDisplayMath.exec(source);
        if (display) return { type: 'inlineMath', raw: display[0], tex: display[1]!, display: true } satisfies MathToken;
        const match = inlineMath.exec(source) ?? singleCharacterMath.exec(source);
        if (!match) return undefined;
        return { type: 'inlineMath', raw: match[0], tex: match[1]!, display: false } satisfies MathToken;
      },
      renderer: (token) => mathHtml(renderers, (token as MathToken).tex, (token as MathToken).display),
    },
  ];
}

/** The language of a fence (` ```python title="x" ` → `python`), lower-cased. */
function fenceLanguage(lang: string | undefined): string {
  return (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
}

const instances = new WeakMap<MarkdownRenderers, Marked>();

/** One parser per set of renderers (the component passes the same object until one loads). */
function markedFor(renderers: MarkdownRenderers): Marked {
  const cached = instances.get(renderers);
  if (cached) return cached;
  const instance = new Marked({ async: false, gfm: true, breaks: true });
  instance.use({
    extensions: mathExtensions(renderers),
    renderer: {
      code({ text, lang }: Tokens.Code) {
        const language = fenceLanguage(lang);
        const highlighted = language && renderers.highlight ? renderers.highlight(text, language) : null;
        const languageClass = language ? ` class="language-${escapeHtml(language)}${highlighted === null ? '' : ' hljs'}"` : '';
        const body = highlighted ?? escapeHtml(text);
        const label = language ? ` data-language="${escapeHtml(language)}"` : '';
        // Focusable: a long line scrolls sideways, and a scroll region must be reachable by keyboard.
        return `<pre class="code-block" tabindex="0"${label}><code${languageClass}>${body}\n</code></pre>\n`;
      },
      // Wide tables scroll inside their bubble instead of widening the page (phone layout).
      table(token: Tokens.Table) {
        const header = token.header.map((cell) => this.tablecell(cell)).join('');
        const rows = token.rows.map((row) => `<tr>${row.map((cell) => this.tablecell(cell)).join('')}</tr>`).join('\n');
        return `<div class="table-scroll" tabindex="0"><table><thead><tr>${header}</tr></thead>${rows ? `<tbody>${rows}</tbody>` : ''}</table></div>\n`;
      },
    },
  });
  instances.set(renderers, instance);
  return instance;
}

/** What `text` would use: the math renderer, the code highlighter. */
export function markdownNeeds(text: string): MarkdownNeeds {
  return {
    math: /\$\$[\s\S]+?\$\$|\$(?![\s$])[^$\n]*[^\\\s$]\$(?!\d)|\$[^\s\\$]\$(?!\d)/.test(text),
    code: /(^|\n) {0,3}(```|~~~)[ \t]*[\w+#.-]+/.test(text),
  };
}

/** The Markdown as HTML, not yet sanitised. */
export function markdownToHtml(text: string, renderers: MarkdownRenderers): string {
  return markedFor(renderers).parse(text) as string;
}
