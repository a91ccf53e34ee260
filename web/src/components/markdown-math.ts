// Loaded lazily by markdown.tsx, only for a message with math: KaTeX and its stylesheet stay
// out of the first page (issue 18: initial JS ≤ 150 KB gzip).
import katex from 'katex';
import 'katex/dist/katex.min.css';
import type { MathRenderer } from './markdown-render';

/** TeX → KaTeX HTML (+ MathML for screen readers); a bad formula shows as its source in red, never throws. */
export const renderMath: MathRenderer = (tex, display) =>
  katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    // No \href, \url, \htmlClass…: learner and model text must not make links or attributes.
    trust: false,
    strict: 'ignore',
    output: 'htmlAndMathml',
    maxSize: 20,
    maxExpand: 200,
  });
