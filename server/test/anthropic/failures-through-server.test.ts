/**
 * SPEC §7, §8 through the whole server: the real SDK against the fake Messages API failing
 * in the ways the real one does (429, a hang past the timeout), and a learner who leaves.
 * A session never dies of it and no learner message is lost or answered twice. The scenarios
 * are shared with the OpenAI suite (helpers/failure-scenarios.ts).
 */
import { startAnthropicTestServer } from '../helpers/anthropic-test-server';
import { failuresThroughServerScenarios } from '../helpers/failure-scenarios';
import { fakeReplies } from '../helpers/fake-anthropic';

failuresThroughServerScenarios({
  start: startAnthropicTestServer,
  replies: fakeReplies,
  overloadedStatus: 529,
  userPrompt: (request) => String(request.body.messages[0]!.content),
});
