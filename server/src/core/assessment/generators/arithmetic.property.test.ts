/**
 * Property tests of the arithmetic skills (SPEC §4.3). Answers and carry/borrow cases are
 * recomputed here with column arithmetic on digit strings — deliberately not the generators'
 * own code — so a shared bug cannot pass unnoticed.
 */
import { digitsOf, describeSkillProperties } from '../../../../test/support/assessment-support';
import type { GeneratedItem } from '../item-builder';

const numberParam = (item: GeneratedItem, name: string): number => {
  const value = item.params[name];
  if (typeof value !== 'number') throw new Error(`params.${name} is not a number`);
  return value;
};

/** Column addition right to left; returns the sum and how many columns carried. */
function columnAdd(a: number, b: number): { sum: number; carries: number } {
  const left = digitsOf(a, 3).reverse();
  const right = digitsOf(b, 3).reverse();
  let carry = 0;
  let carries = 0;
  let sum = 0;
  for (let column = 0; column < 3; column++) {
    const total = (left[column] ?? 0) + (right[column] ?? 0) + carry;
    sum += (total % 10) * 10 ** column;
    carry = total >= 10 ? 1 : 0;
    carries += carry;
  }
  return { sum: sum + carry * 1000, carries };
}

/** Column subtraction right to left; returns the difference and how many columns borrowed. */
function columnSubtract(minuend: number, subtrahend: number): { difference: number; borrows: number } {
  const top = digitsOf(minuend, 3).reverse();
  const bottom = digitsOf(subtrahend, 3).reverse();
  let borrow = 0;
  let borrows = 0;
  let difference = 0;
  for (let column = 0; column < 3; column++) {
    let digit = (top[column] ?? 0) - borrow - (bottom[column] ?? 0);
    borrow = digit < 0 ? 1 : 0;
    if (borrow) {
      digit += 10;
      // A borrow out of the hundreds is not a column the learner works in.
      if (column < 2) borrows++;
    }
    difference += digit * 10 ** column;
  }
  return { difference: borrow ? -1 : difference, borrows };
}

const carryCases = ['no_carry', 'single_carry', 'double_carry'];
describeSkillProperties('MATH.ARITH.ADD.2DIGIT', {
  caseOrder: carryCases,
  check(item) {
    const a = numberParam(item, 'a');
    const b = numberParam(item, 'b');
    const { sum, carries } = columnAdd(a, b);
    const problems: string[] = [];
    if (a < 10 || a > 99 || b < 10 || b > 99) problems.push('operand is not 2-digit');
    if (item.correctAnswer !== String(sum)) problems.push(`answer ${item.correctAnswer}, column sum ${sum}`);
    if (item.params['case'] !== carryCases[carries]) problems.push(`${carries} carries`);
    if (!item.stem.includes(String(a)) || !item.stem.includes(String(b))) problems.push('stem lacks an operand');
    return problems;
  },
});

const borrowCases = ['no_borrow', 'single_borrow', 'double_borrow'];
describeSkillProperties('MATH.ARITH.SUB.2DIGIT', {
  caseOrder: borrowCases,
  check(item) {
    const minuend = numberParam(item, 'minuend');
    const subtrahend = numberParam(item, 'subtrahend');
    const { difference, borrows } = columnSubtract(minuend, subtrahend);
    const problems: string[] = [];
    if (difference < 10 || difference > 99) problems.push(`difference ${difference} is not 2-digit and non-negative`);
    if (item.correctAnswer !== String(difference)) problems.push(`answer ${item.correctAnswer}, column difference ${difference}`);
    if (item.params['case'] !== borrowCases[borrows]) problems.push(`${borrows} borrows`);
    return problems;
  },
});

describeSkillProperties('MATH.ARITH.MUL.BASIC', {
  caseOrder: ['times_table', 'no_carry', 'carry'],
  check(item) {
    const a = numberParam(item, 'a');
    const b = numberParam(item, 'b');
    let product = 0;
    for (let times = 0; times < b; times++) product += a; // repeated addition, not `*`
    const [tensDigit = 0, onesDigit = 0] = digitsOf(a, 2);
    const expectedCase = a < 10 && b < 10 ? 'times_table' : onesDigit * b >= 10 ? 'carry' : 'no_carry';
    const problems: string[] = [];
    if (b < 2 || b > 9) problems.push('b is not a single digit ≥ 2');
    if (a >= 10 && (tensDigit === 0 || a > 99)) problems.push('a is neither single- nor 2-digit');
    if (item.correctAnswer !== String(product)) problems.push(`answer ${item.correctAnswer}, product ${product}`);
    if (item.params['case'] !== expectedCase) problems.push(`expected ${expectedCase}`);
    return problems;
  },
});

describeSkillProperties('MATH.ARITH.DIV.EXACT', {
  caseOrder: ['times_table', 'no_regroup', 'regroup'],
  check(item) {
    const dividend = numberParam(item, 'dividend');
    const divisor = numberParam(item, 'divisor');
    const quotient = Number(item.correctAnswer);
    const text = String(dividend);
    // Long division leaves prefix mod divisor after each step: regrouping = some proper prefix not divisible.
    const regroups = [...text].some((_, index) => index < text.length - 1 && Number(text.slice(0, index + 1)) % divisor !== 0);
    const expectedCase = quotient < 10 ? 'times_table' : regroups ? 'regroup' : 'no_regroup';
    const problems: string[] = [];
    if (!Number.isInteger(quotient) || quotient * divisor !== dividend) problems.push(`${quotient} × ${divisor} ≠ ${dividend}`);
    if (dividend % divisor !== 0) problems.push('division leaves a remainder');
    if (item.params['case'] !== expectedCase) problems.push(`expected ${expectedCase}`);
    return problems;
  },
});
