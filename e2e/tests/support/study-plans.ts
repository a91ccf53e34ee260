/**
 * Study plans from the learner's side: a plan as its reader gets it over REST, and the answer
 * to a practice item of the shipped arithmetic plan, worked out from its prompt as the learner
 * would (the browser never receives the correct option).
 */
import { expect, type Page } from '@playwright/test';
import type { StudyPlanDetail } from '@tutorloop/shared';

/** The plan as its reader gets it over REST (`GET /api/study-plans/{id}`), with the learner's own token. */
export async function readPlan(page: Page, studyPlanId: string): Promise<StudyPlanDetail> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tutorloop.auth') ?? '{}') as { token?: string }).token);
  const response = await page.request.get(`/api/study-plans/${encodeURIComponent(studyPlanId)}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as StudyPlanDetail;
}

/** The answer to a two-number addition or subtraction prompt ("What is 47 + 38?", "Subtract 18 from 52."). */
export function workedAnswer(prompt: string): string {
  const [a, b] = (prompt.match(/\d+/g) ?? []).map(Number);
  if (a === undefined || b === undefined) throw new Error(`no two numbers in the practice prompt "${prompt}"`);
  if (/\+|sum/i.test(prompt)) return String(a + b);
  if (/^Subtract/i.test(prompt)) return String(b - a);
  if (/−|-/.test(prompt)) return String(a - b);
  throw new Error(`not an addition or a subtraction: "${prompt}"`);
}
