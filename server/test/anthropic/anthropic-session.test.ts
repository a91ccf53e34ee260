/**
 * SPEC §4.1 end to end with the `anthropic` provider, the real SDK and the fake Messages API
 * (the scenario, shared with the OpenAI suite, is helpers/recall-turn-scenario.ts).
 */
import { anthropicWire } from '../helpers/provider-wire';
import { recallTurnScenario } from '../helpers/recall-turn-scenario';

recallTurnScenario(anthropicWire);
