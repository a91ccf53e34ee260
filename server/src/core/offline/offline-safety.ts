/**
 * The offline safety gate: a small, deterministic, deliberately conservative check for
 * obvious first-person self-harm statements and threats of violence against people.
 *
 * Conservative means: only clear statements of intent are flagged. Study chat is full of
 * violent vocabulary ("Brutus stabbed Caesar", "the atomic bomb", "kill the process",
 * "Durkheim's study of suicide", "I'm going to kill this exam") and all of it stays safe.
 * The text is normalised first (diacritics, case, punctuation, curly apostrophes), so
 * "I’m going to KILL myself!!" and "im going to kill myself" read the same.
 */
import type { SafetyVerdict } from '../provider';

export const SafetyReasons = {
  selfHarm: 'possible self-harm intent',
  violence: 'possible threat of violence',
} as const;

function normalize(message: string): string {
  return ` ${message
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

const SELF_HARM: readonly RegExp[] = [
  /\b(kill|killing) (myself|my self)\b/,
  /\b(want to|wanna|going to|gonna|will|keep|thinking about|think about|urge to) (hurt|harm|cut|starve)(ing)? (myself|my self)\b/,
  /\b(hurting|harming|cutting|starving) (myself|my self)\b/,
  /\b(end|ending|take|taking) my (own )?life\b/,
  /\b(commit|committing|attempt|attempting) suicide\b/,
  /\bi('m| am| m|m)? (feeling )?(suicidal)\b/,
  /\bi (want|wanna|wish|need) (to )?(die|be dead|not be alive|disappear forever)\b/,
  /\bi (don't|do not|dont) want to (live|be alive|exist) (anymore|any more)\b/,
  /\b(better off dead|no reason to live|kms)\b/,
  /\bself ?harm(ing)? (again|tonight|now)\b/,
];

const TARGETS =
  '(you|u|him|her|them|someone|somebody|people|everyone|everybody|' +
  'my (teacher|tutor|mom|mum|dad|mother|father|brother|sister|family|wife|husband|girlfriend|boyfriend|boss|friend|friends|classmates?|neighbou?r)|' +
  'the (teacher|tutor|class|students|school))';
const INTENT = "(i'm going to|im going to|i am going to|i'm gonna|im gonna|i'll|ill|i will|i want to|i wanna|i'm about to|i plan to|i'm planning to)";
const VIOLENCE: readonly RegExp[] = [
  new RegExp(`\\b${INTENT} (kill|murder|shoot|stab|strangle|hurt|beat up|attack) ${TARGETS}\\b`),
  new RegExp(`\\b${INTENT} (bomb|shoot up|blow up) (the |my )?(school|class|campus|office|building)\\b`),
];

/** Safe unless the message clearly states self-harm intent or a threat against people. */
export function checkSafetyOffline(message: string): SafetyVerdict {
  const text = normalize(message);
  if (SELF_HARM.some((re) => re.test(text))) return { safe: false, reason: SafetyReasons.selfHarm };
  if (VIOLENCE.some((re) => re.test(text))) return { safe: false, reason: SafetyReasons.violence };
  return { safe: true };
}
