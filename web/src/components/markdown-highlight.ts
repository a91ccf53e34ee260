// Loaded lazily by markdown.tsx, only for a message with a fenced code block: the core of
// highlight.js and the few languages a tutor writes, not the 190 of the full build.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import type { CodeHighlighter } from './markdown-render';

const languages = { bash, c, cpp, css, java, javascript, json, python, sql, typescript, xml };
for (const [name, definition] of Object.entries(languages)) hljs.registerLanguage(name, definition);

/** Highlighted HTML (spans with `hljs-*` classes, text escaped), or null for a language not loaded. */
export const highlightCode: CodeHighlighter = (code, language) => {
  if (!hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
};
