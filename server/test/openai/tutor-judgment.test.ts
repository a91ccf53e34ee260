/**
 * What the engine does with the tutor's output, on the openai provider against the fake Chat
 * Completions API (the scenarios, shared with the Anthropic suite, are helpers/tutor-judgment-scenarios.ts).
 */
import { openAiWire } from '../helpers/provider-wire';
import { tutorJudgmentScenarios } from '../helpers/tutor-judgment-scenarios';

tutorJudgmentScenarios(openAiWire);
