/**
 * What the engine does with the tutor's output, on the anthropic provider against the fake
 * Messages API (the scenarios, shared with the OpenAI suite, are helpers/tutor-judgment-scenarios.ts).
 */
import { anthropicWire } from '../helpers/provider-wire';
import { tutorJudgmentScenarios } from '../helpers/tutor-judgment-scenarios';

tutorJudgmentScenarios(anthropicWire);
