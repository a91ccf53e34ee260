/**
 * Learning sessions (SPEC §4.4) through the `anthropic` provider and the fake Messages API
 * (the scenarios, shared with the OpenAI suite, are helpers/learning-session-scenarios.ts).
 */
import { learningSessionScenarios } from '../helpers/learning-session-scenarios';
import { anthropicWire } from '../helpers/provider-wire';

learningSessionScenarios(anthropicWire);
