/**
 * SPEC §4.1 recall mechanics through the real server, the real SDK and the fake Messages API
 * (the scenarios, shared with the OpenAI suite, are in helpers/recall-mechanics-scenarios.ts).
 */
import { startAnthropicTestServer } from '../helpers/anthropic-test-server';
import { fakeReplies } from '../helpers/fake-anthropic';
import { recallMechanicsScenarios } from '../helpers/recall-mechanics-scenarios';

recallMechanicsScenarios({
  name: 'anthropic',
  start: startAnthropicTestServer,
  replies: fakeReplies,
  userPrompt: (request) => request.body.messages[0]!.content as string,
  tutorSystemText: (request) => request.body.system![1]!.text,
});
