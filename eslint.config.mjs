// `pnpm lint:regex` (a step of `npm test`): every regular expression in the source is linear on
// any input and correct. SPEC §8: parsers of learner input are linear — one import with a long
// run of spaces once held every learner for seconds (issue 22). Only eslint-plugin-regexp's rules
// run: this is not a general lint. A `no-super-linear-move` finding is rewritten, or disabled on
// its line with the reason its input is provably short:
//   // eslint-disable-next-line regexp/no-super-linear-move -- <why the input is bounded>
// A `no-super-linear-backtracking` finding is always rewritten. The plugin reasons about runs of
// one character class; patterns such as /\[sound:[^\]]*\]/g, slow on "[sound:[sound:…", pass it,
// so a parser of learner text still needs a look (server/test/attacks/regex-stalls.test.ts).
import typescriptParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';

export default [
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/*.test.ts', '**/*.test.tsx'],
  },
  {
    files: ['shared/src/**/*.{ts,tsx}', 'server/src/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}', 'eval/src/**/*.{ts,tsx}'],
    languageOptions: {
      parser: typescriptParser,
      ecmaVersion: 'latest',
      sourceType: 'module',
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    // A disable comment that no longer silences anything fails the check too.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // Correctness: patterns that cannot mean what they say.
      'regexp/no-contradiction-with-assertion': 'error',
      'regexp/no-dupe-disjunctions': 'error',
      'regexp/no-empty-alternative': 'error',
      'regexp/no-empty-capturing-group': 'error',
      'regexp/no-empty-character-class': 'error',
      'regexp/no-empty-group': 'error',
      'regexp/no-empty-lookarounds-assertion': 'error',
      'regexp/no-escape-backspace': 'error',
      'regexp/no-invalid-regexp': 'error',
      'regexp/no-lazy-ends': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      'regexp/no-misleading-unicode-character': 'error',
      'regexp/no-missing-g-flag': 'error',
      'regexp/no-optional-assertion': 'error',
      'regexp/no-potentially-useless-backreference': 'error',
      'regexp/no-useless-assertions': 'error',
      'regexp/no-useless-backreference': 'error',
      'regexp/no-useless-dollar-replacements': 'error',
    },
  },
];
