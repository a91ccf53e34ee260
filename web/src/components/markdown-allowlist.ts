import createDOMPurify, { type DOMPurify, type UponSanitizeAttributeHookEvent, type WindowLike } from 'dompurify';
import { markdownToHtml, type MarkdownRenderers } from './markdown-render';

/**
 * What Markdown may become in the DOM (issue 22, SPEC §8: "content one learner shares with
 * others renders as text, math, code and same-origin or `data:` images only"). Every chat
 * message, widget prompt and item stem goes through here: a shared study plan or survey
 * reaches another learner in the tutor's replies and the widgets' prompts, and a model can be
 * talked into repeating anything it was shown.
 *
 * Two passes, so KaTeX's inline styles can be told apart from an author's:
 * 1. the author's Markdown → HTML with every formula replaced by an empty marker element
 *    (`data-math-slot`, carrying a random per-page nonce the author cannot guess), sanitised
 *    against the content allowlist below — no forms, frames, styles, `style` or `id`
 *    attributes, only the classes our renderer emits, links only to http(s)/mailto with their
 *    host shown, images only from this origin or `data:image/*`;
 * 2. each formula's KaTeX HTML sanitised on its own against the math allowlist (KaTeX's tags,
 *    its classes, and `style` reduced to the properties and values KaTeX writes), then put in
 *    place of its marker.
 * KaTeX's styles travel as `data-katex-style` and are applied through the CSSOM
 * (`applyMathStyles`), because the Content-Security-Policy refuses inline style attributes
 * (`style-src-attr 'none'`, server/src/http/security-headers.ts) and CSSOM writes are not
 * inline styles.
 */

/** Elements the author's Markdown (and the HTML in it) may produce; anything else is dropped, its text kept. */
export const contentTags = [
  'a', 'b', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img',
  'kbd', 'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
] as const;

/** Attributes per element (besides `class`, which every element may carry, filtered by `rendererClasses`). */
export const contentAttributes: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title'],
  pre: ['tabindex', 'data-language'],
  div: ['tabindex'],
  span: ['tabindex', 'data-math-slot'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

/**
 * The classes `markdown-render.ts` and highlight.js emit, so an author's HTML cannot borrow the
 * app's own layout classes (a dialog, a backdrop, a header). The fence's `language-…` class is
 * not kept: its name is the author's (```` ```badge ```` would give the app's `language-badge`),
 * no style uses it, and the language stays in the block's `data-language`.
 */
const rendererClassNames = new Set(['code-block', 'hljs', 'math-display', 'math-scroll', 'math-source', 'table-scroll']);
/** highlight.js token scopes: `hljs-keyword`, `hljs-built_in`, and sub-scopes written `function_`, `class_`. */
const highlightScope = /^hljs-[a-z][a-z0-9_-]{0,40}$/;
const highlightSubScope = /^[a-z]{1,20}_{1,3}$/;

/** The class list `value` may keep: only classes our renderer emits (null: none left). */
export function rendererClasses(value: string): string | null {
  const kept = value.split(/\s+/).filter((name) => rendererClassNames.has(name) || highlightScope.test(name) || highlightSubScope.test(name));
  return kept.length > 0 ? kept.join(' ') : null;
}

/** Attribute values that are not URLs, each checked against its own pattern. */
const attributeValues: Readonly<Record<string, RegExp>> = {
  tabindex: /^0$/,
  'data-language': /^[\w+#.-]{1,40}$/,
  start: /^\d{1,6}$/,
  align: /^(?:left|center|right)$/,
};

/** A link the content may keep: its normalised `href`, and what to show of where it goes. */
export interface SafeLink {
  href: string;
  /** The host (`example.com`, punycode for look-alike letters) or, for `mailto:`, the address. */
  destination: string;
}

/**
 * Only absolute `http:`, `https:` and `mailto:` links. Relative and `#` links are refused
 * too: the app routes by `#`, so a same-page anchor would navigate the app, and our renderer
 * emits none.
 */
export function safeLink(href: string): SafeLink | null {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.host ? { href: url.href, destination: url.host } : null;
  if (url.protocol === 'mailto:') return url.pathname ? { href: url.href, destination: url.pathname } : null;
  return null;
}

/** `data:image/png;base64,…`, `data:image/svg+xml,…` (an SVG in an `<img>` runs no script and loads nothing). */
const dataImage = /^data:image\/[a-z0-9.+-]{1,40}[;,]/i;

/** An image source the content may keep: this origin's (as an absolute URL) or `data:image/*`; null for any other. */
export function safeImageSource(source: string, origin: string): string | null {
  const trimmed = source.trim();
  if (dataImage.test(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed, `${origin}/`);
  } catch {
    return null;
  }
  return url.origin === origin ? url.href : null;
}

/** Whether a link's visible text already shows where it goes (an autolink, or a URL written as its text). */
export function showsDestination(text: string, destination: string): boolean {
  return text.toLowerCase().includes(destination.toLowerCase());
}

// ---------------------------------------------------------------------------
// KaTeX's output (trust off: no \href, \url, \htmlStyle, \includegraphics — markdown-math.ts)
// ---------------------------------------------------------------------------

/** KaTeX's HTML and MathML elements, and the SVG of its stretchy symbols. */
export const mathTags = [
  'span', 'svg', 'path', 'line', 'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub',
  'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mlabeledtr', 'mpadded', 'mphantom', 'mstyle', 'menclose',
] as const;

export const mathAttributes = [
  'class', 'title', 'aria-hidden', 'xmlns', 'encoding', 'display', 'width', 'height', 'viewbox', 'preserveaspectratio', 'd',
  'x1', 'y1', 'x2', 'y2', 'stroke-width', 'mathvariant', 'mathcolor', 'mathbackground', 'mathsize', 'scriptlevel', 'displaystyle',
  'stretchy', 'fence', 'separator', 'accent', 'accentunder', 'minsize', 'maxsize', 'lspace', 'rspace', 'voffset', 'depth', 'linebreak',
  'linethickness', 'notation', 'columnalign', 'rowalign', 'columnspacing', 'rowspacing', 'columnlines', 'rowlines', 'symmetric', 'largeop',
  'movablelimits',
] as const;

const emLength = /^-?(?:\d{1,6}(?:\.\d{1,6})?|\.\d{1,6})em$|^0$/;
const color = /^(?:#[0-9a-f]{3,8}|[a-z]{1,30})$/i;
/** `\fcolorbox`'s frame: `0.04em solid red`. */
const border = /^(?:\d{1,6}(?:\.\d{1,6})?|\.\d{1,6})em solid (?:#[0-9a-f]{3,8}|[a-z]{1,30})$/i;

/**
 * The inline style properties KaTeX writes and the values each may take. Sizes are ems
 * (`maxSize` caps \rule); a sideways shift may not exceed a few ems to the left (a large
 * negative \kern could slide a formula over the text before it); `position` only `relative`.
 */
const mathStyleRules: Readonly<Record<string, (value: string) => boolean>> = {
  height: (value) => emLength.test(value),
  width: (value) => emLength.test(value),
  'min-width': (value) => emLength.test(value),
  'vertical-align': (value) => emLength.test(value),
  top: (value) => emLength.test(value),
  bottom: (value) => emLength.test(value),
  left: (value) => emLength.test(value) && parseFloat(value) >= -5,
  'margin-left': (value) => emLength.test(value) && parseFloat(value) >= -5,
  'margin-right': (value) => emLength.test(value) && parseFloat(value) >= -5,
  'padding-left': (value) => emLength.test(value),
  'border-bottom-width': (value) => emLength.test(value),
  'border-top-width': (value) => emLength.test(value),
  'border-right-width': (value) => emLength.test(value),
  'border-width': (value) => emLength.test(value),
  'border-style': (value) => value === 'solid',
  border: (value) => border.test(value),
  position: (value) => value === 'relative',
  color: (value) => color.test(value),
  'background-color': (value) => color.test(value),
  'border-color': (value) => color.test(value),
};

/** A KaTeX `style` reduced to the declarations `mathStyleRules` allows (the empty string when none is left). */
export function safeMathStyle(style: string): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    const rule = Object.hasOwn(mathStyleRules, property) ? mathStyleRules[property] : undefined;
    if (rule?.(value)) kept.push(`${property}:${value}`);
  }
  return kept.join(';');
}

/** The attribute KaTeX's filtered styles travel in until `applyMathStyles` sets them. */
export const mathStyleAttribute = 'data-katex-style';

/**
 * Sets the KaTeX styles under `root` through the CSSOM (allowed by `style-src 'self'`, unlike
 * a parsed `style` attribute). Called after the sanitised HTML is in the DOM.
 */
export function applyMathStyles(root: ParentNode): void {
  for (const element of root.querySelectorAll(`[${mathStyleAttribute}]`)) {
    const style = (element as Element & Partial<ElementCSSInlineStyle>).style;
    if (style) style.cssText = element.getAttribute(mathStyleAttribute) ?? '';
    element.removeAttribute(mathStyleAttribute);
  }
}

// ---------------------------------------------------------------------------
// The sanitiser
// ---------------------------------------------------------------------------

export interface MarkdownSanitizer {
  /** Markdown → HTML safe to put in the DOM (then `applyMathStyles` on its container). */
  toSafeHtml(text: string, renderers: MarkdownRenderers): string;
}

export interface SanitizerOptions {
  /** The page's origin (`location.origin`): images from it are kept. */
  origin: string;
  /** Marks formulas between the two passes; random by default (tests fix it). */
  nonce?: string;
}

function randomNonce(): string {
  // getRandomValues, not randomUUID: the latter exists only on https and localhost.
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const taskBox = { checked: '☑', unchecked: '☐' } as const;

function contentPurifier(view: WindowLike, origin: string, nonce: string): DOMPurify {
  const purify = createDOMPurify(view);
  const slotValue = new RegExp(`^${nonce}-\\d{1,6}$`);
  purify.addHook('uponSanitizeElement', (node, data) => {
    // GitHub task lists come as disabled checkboxes: kept as a box character, no input.
    if (data.tagName === 'input' && node instanceof view.Element && node.getAttribute('type') === 'checkbox') {
      node.before(node.ownerDocument.createTextNode(node.hasAttribute('checked') ? taskBox.checked : taskBox.unchecked));
    }
  });
  purify.addHook('uponSanitizeAttribute', (node, data: UponSanitizeAttributeHookEvent) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    if (name === 'class') {
      const kept = rendererClasses(data.attrValue);
      if (kept === null) data.keepAttr = false;
      else data.attrValue = kept;
      return;
    }
    if (!(contentAttributes[tag] ?? []).includes(name)) {
      data.keepAttr = false;
      return;
    }
    if (name === 'href') {
      const link = safeLink(data.attrValue);
      if (link) data.attrValue = link.href;
      else data.keepAttr = false;
    } else if (name === 'src') {
      const source = safeImageSource(data.attrValue, origin);
      if (source) data.attrValue = source;
      else data.keepAttr = false;
    } else if (name === 'data-math-slot') {
      data.keepAttr = slotValue.test(data.attrValue);
    } else if (Object.hasOwn(attributeValues, name)) {
      data.keepAttr = attributeValues[name]!.test(data.attrValue);
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof view.Element)) return;
    // A refused image is its description, not a broken-image icon.
    if (node.nodeName === 'IMG' && !node.hasAttribute('src')) {
      node.replaceWith(node.ownerDocument.createTextNode(node.getAttribute('alt') ?? ''));
      return;
    }
    if (node.nodeName !== 'A') return;
    const link = safeLink(node.getAttribute('href') ?? '');
    // A refused link is its text, not something that looks like a link and goes nowhere.
    if (!link) {
      node.replaceWith(...Array.from(node.childNodes));
      return;
    }
    // A web page opens in a new tab that cannot reach back to this one; none tells the other
    // site where it came from or gives search-engine credit to whatever a learner links to.
    if (link.href.startsWith('http')) node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    // Where a link goes is visible without hovering: "text (example.com)".
    if (!showsDestination(node.textContent ?? '', link.destination)) node.append(node.ownerDocument.createTextNode(` (${link.destination})`));
  });
  return purify;
}

function mathPurifier(view: WindowLike): DOMPurify {
  const purify = createDOMPurify(view);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      data.attrValue = data.attrValue.split(/\s+/).filter((name) => /^[a-z][a-z0-9-]{0,40}$/.test(name)).join(' ');
    } else if (data.attrName === mathStyleAttribute) {
      data.attrValue = safeMathStyle(data.attrValue);
      data.keepAttr = data.attrValue !== '';
    }
  });
  return purify;
}

/**
 * KaTeX's `style` attributes renamed before DOMPurify parses the formula: parsing a `style`
 * attribute, even in DOMPurify's inert document, makes the browser report a policy violation.
 * KaTeX escapes `"` in text (`&quot;`), so ` style="` can only be one of its attributes.
 */
function withStylesRenamed(katexHtml: string): string {
  return katexHtml.replaceAll(' style="', ` ${mathStyleAttribute}="`);
}

const contentConfig = {
  ALLOWED_TAGS: [...contentTags],
  ALLOWED_ATTR: ['class', ...new Set(Object.values(contentAttributes).flat())],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

const mathConfig = {
  ALLOWED_TAGS: [...mathTags],
  ALLOWED_ATTR: [...mathAttributes, mathStyleAttribute],
  // A style is not a URL: DOMPurify's URL check would refuse "height:1em".
  ADD_URI_SAFE_ATTR: [mathStyleAttribute],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/**
 * The sanitiser for one window (DOMPurify needs a DOM: the browser's, or Chromium's in the
 * unit test). Its two DOMPurify instances are its own, so no other user of DOMPurify's hooks
 * can loosen them.
 */
export function createMarkdownSanitizer(view: WindowLike, options: SanitizerOptions): MarkdownSanitizer {
  const nonce = options.nonce ?? randomNonce();
  const content = contentPurifier(view, options.origin, nonce);
  const math = mathPurifier(view);
  const marker = (index: number) => `<span data-math-slot="${nonce}-${index}"></span>`;

  // The formulas of the text being rendered: parsing is synchronous, so one list at a time.
  let formulas: string[] = [];
  // One wrapper per set of renderers, so markdown-render keeps one parser per set.
  const wrapped = new WeakMap<MarkdownRenderers, MarkdownRenderers>();
  const withMarkers = (renderers: MarkdownRenderers): MarkdownRenderers => {
    const render = renderers.math;
    if (!render) return renderers;
    let wrapper = wrapped.get(renderers);
    if (!wrapper) {
      wrapper = {
        ...renderers,
        math: (tex, display) => {
          formulas.push(render(tex, display));
          return marker(formulas.length - 1);
        },
      };
      wrapped.set(renderers, wrapper);
    }
    return wrapper;
  };

  return {
    toSafeHtml(text, renderers) {
      formulas = [];
      const html = markdownToHtml(text, withMarkers(renderers));
      const found = formulas;
      formulas = [];
      let safe = content.sanitize(html, contentConfig);
      // A marker survives pass 1 only as the element our renderer wrote (the nonce is unknown
      // to the author, and serialised text or attributes never contain it with raw quotes).
      found.forEach((formula, index) => {
        safe = safe.replace(marker(index), () => math.sanitize(withStylesRenamed(formula), mathConfig));
      });
      return safe;
    },
  };
}
