import { describe, expect, it } from 'vitest';
import { markdownNeeds, markdownToHtml, type MarkdownRenderers } from './markdown-render';

const plain: MarkdownRenderers = { math: null, highlight: null };
const fake: MarkdownRenderers = {
  math: (tex, display) => `<m d="${display}">${tex}</m>`,
  highlight: (code, language) => (language === 'python' ? `<b>${code}</b>` : null),
};

describe('markdown in the chat (issue 18, reading replies)', () => {
  it('renders inline and display math with the math renderer', () => {
    expect(markdownToHtml('Area is $A = \\pi r^2$ here.', fake)).toBe('<p>Area is <m d="false">A = \\pi r^2</m> here.</p>\n');
    expect(markdownToHtml('$$\n\\int_0^1 x\\,dx = \\frac12\n$$', fake)).toBe(
      '<span class="math-scroll" tabindex="0"><m d="true">\\int_0^1 x\\,dx = \\frac12</m></span>\n',
    );
    expect(markdownToHtml('so $$e^{i\\pi}+1=0$$ holds', fake)).toBe(
      '<p>so <span class="math-scroll" tabindex="0"><m d="true">e^{i\\pi}+1=0</m></span> holds</p>\n',
    );
    expect(markdownToHtml('let $x$ be', fake)).toBe('<p>let <m d="false">x</m> be</p>\n');
  });

  it('keeps prices and dollars in code as text', () => {
    expect(markdownToHtml('It costs $5 and $10.', fake)).toBe('<p>It costs $5 and $10.</p>\n');
    expect(markdownToHtml('between $3.50 and $4', fake)).toBe('<p>between $3.50 and $4</p>\n');
    expect(markdownToHtml('`echo $HOME$` is shell', fake)).toBe('<p><code>echo $HOME$</code> is shell</p>\n');
    expect(markdownNeeds('It costs $5 and $10.').math).toBe(false);
  });

  it('keeps Markdown out of math (underscores and stars are TeX there)', () => {
    expect(markdownToHtml('$a_1 * b_2 * c$', fake)).toBe('<p><m d="false">a_1 * b_2 * c</m></p>\n');
  });

  it('shows the TeX source, escaped, until KaTeX has loaded', () => {
    expect(markdownToHtml('$a<b$', plain)).toBe('<p><span class="math-source">$a&lt;b$</span></p>\n');
  });

  it('highlights fenced code of a known language and escapes the rest', () => {
    expect(markdownToHtml('```python\nprint(1)\n```', fake)).toBe(
      '<pre class="code-block" tabindex="0" data-language="python"><code class="language-python hljs"><b>print(1)</b>\n</code></pre>\n',
    );
    expect(markdownToHtml('```cobol\nA < B\n```', fake)).toBe(
      '<pre class="code-block" tabindex="0" data-language="cobol"><code class="language-cobol">A &lt; B\n</code></pre>\n',
    );
    expect(markdownNeeds('```python\nx\n```')).toEqual({ math: false, code: true });
  });

  it('wraps tables so they scroll inside their message', () => {
    expect(markdownToHtml('| a | b |\n| - | - |\n| 1 | 2 |', plain)).toBe(
      '<div class="table-scroll" tabindex="0"><table><thead><tr><th>a</th>\n<th>b</th>\n</tr></thead><tbody><tr><td>1</td>\n<td>2</td>\n</tr></tbody></table></div>\n',
    );
  });
});
