/** The Markdown study plan format (SPEC §4.4; server/study-plans/README.md): a good plan, and each malformed case → `field: message (line N)`. */
import { describe, expect, it } from 'vitest';
import { frontMatterMaxChars, frontMatterProblem, parseStudyPlanMarkdown } from './parse-markdown';

const skills = new Set(['NET.IPV4.SUBNET.NETWORK', 'NET.IPV4.SUBNET.BROADCAST']);

const good = `---
title: Finding the network address
topic: IPv4 subnetting
audience: first-year networking students
objectives:
  - Read a prefix length as a subnet mask
  - Find the network address of a host
prerequisites:
  - Binary numbers
misconceptions:
  - The network address is the first usable host
  - concept: subnet mask
    description: Counts the zero bits of the mask as the prefix
teachingApproach: >
  Binary first, then the shortcut
  with the block size.
allowExtension: true
---

# Finding the network address

## 1. explain: subnet mask

A /24 prefix means the first 24 bits are the network part:
the mask is 255.255.255.0.

- Each 255 is an octet of ones.
- Each 0 is an octet of zeros.

\`\`\`
blueprint: inside code, not a key
\`\`\`

## 2. check: subnet mask

Check the prefix-to-mask conversion before moving on.

- Q: What subnet mask does the prefix /24 stand for?
  A: 255.255.255.0
  Also: 255.255.255.0/24;
    /24 mask 255.255.255.0
- Q: How many bits
  are in the network part of a /16?
  A: 16
  Also: sixteen

## 3. practice: network address

blueprint: NET.IPV4.SUBNET.NETWORK
items: 2

AND the address with the mask, octet by octet.
`;

/** The 1-based line of the first line containing `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`"${needle}" is not in the text`);
  return index + 1;
}

function errorOf(text: string): string {
  const result = parseStudyPlanMarkdown(text, skills);
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.error;
}

describe('parseStudyPlanMarkdown', () => {
  it('reads a plan: front matter fields, steps from "## N. type: concept" sections, questions, practice keys', () => {
    expect(parseStudyPlanMarkdown(good, skills)).toEqual({
      ok: true,
      value: {
        title: 'Finding the network address',
        topic: 'IPv4 subnetting',
        audience: 'first-year networking students',
        objectives: ['Read a prefix length as a subnet mask', 'Find the network address of a host'],
        prerequisites: ['Binary numbers'],
        misconceptions: [
          { description: 'The network address is the first usable host' },
          { concept: 'subnet mask', description: 'Counts the zero bits of the mask as the prefix' },
        ],
        teachingApproach: 'Binary first, then the shortcut with the block size.',
        allowExtension: true,
        allowBacktrack: false,
        steps: [
          {
            number: 1,
            type: 'explain',
            concept: 'subnet mask',
            // Wrapped lines are joined; list items and code stay as written.
            contentHint:
              'A /24 prefix means the first 24 bits are the network part: the mask is 255.255.255.0.\n\n- Each 255 is an octet of ones.\n- Each 0 is an octet of zeros.\n\n```\nblueprint: inside code, not a key\n```',
          },
          {
            number: 2,
            type: 'check',
            concept: 'subnet mask',
            contentHint: 'Check the prefix-to-mask conversion before moving on.',
            questions: [
              { question: 'What subnet mask does the prefix /24 stand for?', expectedAnswer: '255.255.255.0', acceptedAnswers: ['255.255.255.0/24', '/24 mask 255.255.255.0'] },
              { question: 'How many bits are in the network part of a /16?', expectedAnswer: '16', acceptedAnswers: ['sixteen'] },
            ],
          },
          { number: 3, type: 'practice', concept: 'network address', contentHint: 'AND the address with the mask, octet by octet.', skillBlueprintId: 'NET.IPV4.SUBNET.NETWORK', items: 2 },
        ],
      },
    });
  });

  it('takes the title from the first "# " heading when the front matter has none, and accepts CRLF line ends', () => {
    const result = parseStudyPlanMarkdown(good.replace('title: Finding the network address\n', '').replace(/\n/g, '\r\n'), skills);
    expect(result.ok && result.value.title).toBe('Finding the network address');
  });

  describe('refuses, naming the field and the line', () => {
    it('a file without front matter, or with an unclosed one', () => {
      expect(errorOf('## 1. explain: x\n\ntext\n')).toBe(
        'plan: a Markdown plan starts with front matter: a "---" line, the plan’s fields in YAML, then a closing "---" (line 1)',
      );
      expect(errorOf('---\ntitle: x\n\n## 1. explain: x\n')).toBe('plan: the front matter has no closing "---" line (line 1)');
    });

    it('front matter that is not valid YAML', () => {
      const text = good.replace('topic: IPv4 subnetting', 'topic: IPv4: subnetting');
      expect(errorOf(text)).toBe(`front matter: Nested mappings are not allowed in compact mappings (line ${lineOf(text, 'topic:')})`);
    });

    it('a front matter that expands aliases without bound (it is refused, not expanded)', () => {
      const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, level) => `${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(10).fill(`*${String.fromCharCode(97 + level)}`).join(', ')}]`)];
      const text = `---\n${bomb.join('\n')}\n---\n\n## 1. explain: x\n\nText.\n`;
      expect(errorOf(text)).toMatch(/^front matter: .*alias.* \(line 2\)$/i);
    });

    it('a missing field, an unknown field, an empty list', () => {
      const text = good.replace('topic: IPv4 subnetting\n', '').replace('teachingApproach: >', 'teaching_approach: >').replace(/objectives:\n(  - .*\n)+/, 'objectives: []\n');
      expect(errorOf(text)).toBe(
        [
          'topic: is missing (line 1)',
          'teachingApproach: is missing (line 1)',
          `objectives: a plan needs at least one learning objective (line ${lineOf(text, 'objectives:')})`,
          `teaching_approach: is not a field here (line ${lineOf(text, 'teaching_approach')})`,
        ].join('; '),
      );
    });

    it('an empty front matter value, at its own line', () => {
      const text = good.replace('audience: first-year networking students', 'audience: ""');
      expect(errorOf(text)).toBe(`audience: is empty (line ${lineOf(text, 'audience:')})`);
    });

    it('steps written into the front matter', () => {
      const text = good.replace('allowExtension: true', 'allowExtension: true\nsteps:\n  - number: 1');
      expect(errorOf(text)).toBe(`steps: write steps as "## N. explain|check|practice: concept" sections after the front matter, not in it (line ${lineOf(text, '  - number: 1')})`);
    });

    it('text before the first step', () => {
      const text = good.replace('# Finding the network address\n', '# Finding the network address\n\nSome notes for the author.\n');
      expect(errorOf(text)).toBe(`steps: text before the first step; a step starts with "## N. explain|check|practice: concept" (line ${lineOf(text, 'Some notes')})`);
    });

    it('a plan without steps', () => {
      const text = good.slice(0, good.indexOf('## 1.'));
      // At the line where the body begins, after the closing "---".
      expect(errorOf(text)).toBe(`steps: a plan needs at least one step (line ${lineOf(text, 'allowExtension') + 2})`);
    });

    it('more steps than a plan may have, without reading the rest of the file', () => {
      const sections = Array.from({ length: 5000 }, (_, index) => `## ${index + 1}. explain: concept ${index}\n\nText.\n`).join('\n');
      const text = `${good.slice(0, good.indexOf('## 1.'))}${sections}`;
      const started = Date.now();
      expect(errorOf(text)).toBe(`steps: a plan has at most 60 steps (line ${lineOf(text, '## 61. explain')})`);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('a heading that is not a step heading, an unknown step type, steps out of order', () => {
      const badHeading = good.replace('## 1. explain: subnet mask', '## Step one');
      expect(errorOf(badHeading)).toBe(`steps.0: a step heading reads "## N. explain|check|practice: concept", not "## Step one" (line ${lineOf(badHeading, '## Step one')})`);
      const badType = good.replace('## 1. explain: subnet mask', '## 1. lecture: subnet mask');
      expect(errorOf(badType)).toBe(`steps.0.type: must be one of explain, check, practice (line ${lineOf(badType, '## 1. lecture')})`);
      const outOfOrder = good.replace('## 2. check', '## 4. check');
      expect(errorOf(outOfOrder)).toBe(`steps.1.number: must be 2: steps are numbered 1..N in order (line ${lineOf(outOfOrder, '## 4. check')})`);
    });

    it('a step without a content hint or concept', () => {
      const text = good.replace('Check the prefix-to-mask conversion before moving on.\n', '').replace('## 3. practice: network address', '## 3. practice:');
      expect(errorOf(text)).toBe(
        [`steps.1.contentHint: is empty (line ${lineOf(text, '## 2. check')})`, `steps.2.concept: is empty (line ${lineOf(text, '## 3. practice:')})`].join('; '),
      );
    });

    it('a check step without questions, a question without an answer, an empty question', () => {
      const noQuestions = good.slice(0, good.indexOf('- Q: What subnet')) + good.slice(good.indexOf('## 3.'));
      expect(errorOf(noQuestions)).toBe(`steps.1.questions: a check step needs at least one question (line ${lineOf(noQuestions, '## 2. check')})`);
      const noAnswer = good.replace('  A: 16\n', '');
      expect(errorOf(noAnswer)).toBe(`steps.1.questions.1.expectedAnswer: is missing; write it on an "A:" line under the question (line ${lineOf(noAnswer, '- Q: How many bits')})`);
      const twoAnswers = good.replace('  A: 16\n', '  A: 16\n  A: sixteen\n');
      expect(errorOf(twoAnswers)).toBe(
        `steps.1.questions.1.expectedAnswer: given twice; write other accepted answers on an "Also:" line (line ${lineOf(twoAnswers, 'A: sixteen')})`,
      );
      const emptyQuestion = good.replace('- Q: What subnet mask does the prefix /24 stand for?', '- Q:');
      expect(errorOf(emptyQuestion)).toBe(`steps.1.questions.0.question: is empty (line ${lineOf(emptyQuestion, '- Q:')})`);
    });

    it('questions outside a check step, a blueprint outside a practice step', () => {
      const text = good.replace('- Each 0 is an octet of zeros.', '- Q: What is 255 in binary?\n  A: 11111111').replace('Check the prefix-to-mask', 'blueprint: NET.IPV4.SUBNET.NETWORK\n\nCheck the prefix-to-mask');
      expect(errorOf(text)).toBe(
        [
          `steps.0.questions: only check steps have questions ("- Q:" items) (line ${lineOf(text, '- Q: What is 255')})`,
          `steps.1.skillBlueprintId: only practice steps name a skill blueprint (line ${lineOf(text, 'blueprint: NET')})`,
        ].join('; '),
      );
    });

    it('a practice step without a blueprint, with an unknown one, with items that are not a number', () => {
      const missing = good.replace('blueprint: NET.IPV4.SUBNET.NETWORK\n', '');
      expect(errorOf(missing)).toBe(`steps.2.skillBlueprintId: is missing; add a "blueprint: <skill blueprint id>" line to the step (line ${lineOf(missing, '## 3. practice')})`);
      const unknown = good.replace('blueprint: NET.IPV4.SUBNET.NETWORK', 'blueprint: NET.IPV6');
      expect(errorOf(unknown)).toBe(
        `steps.2.skillBlueprintId: unknown skill blueprint "NET.IPV6" (known: NET.IPV4.SUBNET.BROADCAST, NET.IPV4.SUBNET.NETWORK) (line ${lineOf(unknown, 'blueprint: NET.IPV6')})`,
      );
      const items = good.replace('items: 2', 'items: two');
      expect(errorOf(items)).toBe(`steps.2.items: expected number, received string (line ${lineOf(items, 'items: two')})`);
      const tooMany = good.replace('items: 2', 'items: 9');
      expect(errorOf(tooMany)).toBe(`steps.2.items: Too big: expected number to be <=5 (line ${lineOf(tooMany, 'items: 9')})`);
    });
  });
});

describe('front matter bounded before YAML parsing (issue 22)', () => {
  it('passes the shapes a plan uses: lists of objects, quoted text with brackets, comments', () => {
    const front = ['title: Plan', 'objectives:', '  - Read [a] number', 'misconceptions:', '  - concept: carrying', "    description: 'writes [38 + 45 = 713]' # a comment [[[["].join('\n');
    expect(frontMatterProblem(front)).toBeNull();
  });

  it('refuses what no plan needs and the parser chokes on: size, nesting, compact dashes, deep indentation', () => {
    expect(frontMatterProblem('a'.repeat(frontMatterMaxChars + 1))).toMatch(/^is longer than 16,384 characters/);
    expect(frontMatterProblem(`x: ${'['.repeat(13)}`)).toMatch(/^nests brackets more than 12 deep/);
    expect(frontMatterProblem('- '.repeat(13))).toMatch(/^nests lists more than 12 deep/);
    expect(frontMatterProblem(`a:\n${' '.repeat(49)}b: 1`)).toMatch(/^is indented more than 48 spaces/);
  });
});
