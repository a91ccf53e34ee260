/**
 * SPEC §4.1 recall mechanics through the real server, the real `openai` SDK and the fake Chat
 * Completions API (the scenarios, shared with the Anthropic suite, are in
 * helpers/recall-mechanics-scenarios.ts).
 */
import { openAiReplies } from '../helpers/fake-openai';
import { recallMechanicsScenarios } from '../helpers/recall-mechanics-scenarios';
import { startOpenAiTestServer, systemText, userPrompt } from './openai-test-server';

recallMechanicsScenarios({
  name: 'openai',
  start: startOpenAiTestServer,
  replies: openAiReplies,
  userPrompt,
  tutorSystemText: systemText,
});
