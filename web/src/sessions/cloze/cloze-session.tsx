import type { SessionTypeDefinition } from '../session-type';
import { ClozeCompletion } from './cloze-completion';
import { clozeRules } from './cloze-rules';

/**
 * Cloze drills (SPEC §4.6). The point on screen is the server's `free_text` widget (the blanked
 * sentence, "Point 2 of 8"); the session bar says "3 of 8" and "second try" from the rules.
 */
export const clozeSession: SessionTypeDefinition = {
  ...clozeRules,
  HeaderExtras: null,
  Rail: null,
  Completion: ClozeCompletion,
};
