/**
 * SPEC §4.1 end to end with the `openai` provider, the real `openai` SDK and the fake Chat
 * Completions API (the scenario, shared with the Anthropic suite, is helpers/recall-turn-scenario.ts).
 */
import { openAiWire } from '../helpers/provider-wire';
import { recallTurnScenario } from '../helpers/recall-turn-scenario';

recallTurnScenario(openAiWire);
