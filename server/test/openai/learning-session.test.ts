/**
 * Learning sessions (SPEC §4.4) through the `openai` provider and the fake Chat Completions API:
 * the master tutor is a forced `tutor_turn` function call whose arguments are parsed (the
 * scenarios, shared with the Anthropic suite, are helpers/learning-session-scenarios.ts).
 */
import { learningSessionScenarios } from '../helpers/learning-session-scenarios';
import { openAiWire } from '../helpers/provider-wire';

learningSessionScenarios(openAiWire);
