/**
 * A scripted OpenAI-compatible server for running the whole product on the `openai`
 * provider with no model (the acceptance run of `pnpm eval --provider openai --url …`): the
 * test fake (../helpers/fake-openai.ts) with replies computed from each request — the
 * evaluator marks the points most of whose words the learner's latest message carries, the
 * tutor cues, asks for free text after one miss on a long point and hands out a
 * multiple-choice widget after two misses. Prints its URL; stop it with Ctrl-C.
 *
 *   cd server && node --import tsx test/openai/scripted-openai-server.ts
 *   LLM_PROVIDER=openai OPENAI_API_KEY=x OPENAI_BASE_URL=<its URL> node --import tsx src/main.ts
 *   corepack pnpm eval --provider openai --url <the server's URL> eval/suites/recall-basics.json eval/suites/widgets.json
 */
import { openAiReplies, startFakeOpenAi, type RecordedOpenAiRequest } from '../helpers/fake-openai';

const stop = new Set(['the', 'is', 'a', 'an', 'of', 'at', 'and', 'in', 'on', 'by', 'to', 'through', 'it', 'its', 'are', 'be', 'earth']);
const words = (text: string) => new Set(text.toLowerCase().replace(/'s\b/g, '').split(/[^a-z0-9]+/).filter((w) => w && !stop.has(w)).map((w) => w.replace(/s$/, '')));
const userText = (r: RecordedOpenAiRequest) => String(r.body.messages.find((m) => m.role === 'user')?.content ?? '');
const systemText = (r: RecordedOpenAiRequest) => String(r.body.messages.find((m) => m.role === 'system')?.content ?? '');

async function main(): Promise<void> {
  const fake = await startFakeOpenAi();
  fake.setDefault('evaluator', (request) => {
    const text = userText(request);
    const points = [...text.matchAll(/^- \[([^\]]+)\] (.+?)(?: \(context: .*\))?$/gm)].map((m) => ({ id: m[1]!, content: m[2]! }));
    const latest = [...text.matchAll(/^\[\d+\] Learner[^:]*\(latest\): (.*)$/gm)].at(-1)?.[1] ?? '';
    const said = words(latest);
    const recalled = points.filter((p) => {
      const need = [...words(p.content)];
      return need.filter((w) => said.has(w)).length / need.length >= 0.6;
    });
    return openAiReplies.evaluation({
      recalledPoints: recalled.map((p) => ({ id: p.id, confidence: 0.9, observation: 'stated it' })),
      feedback: recalled.length ? `Recalled ${recalled.length}.` : 'Nothing recalled yet.',
    });
  });
  fake.setDefault('tutor', (request) => {
    const system = systemText(request);
    if (/Every idea has been recalled/.test(system)) return openAiReplies.text('Well done — that is everything for today!');
    const attempts = Number(/Unsuccessful attempts on this idea so far: (\d+)/.exec(system)?.[1] ?? '0');
    const idea = /Current idea to cue — secret: [^“]*“([^”]+)”/.exec(system)?.[1];
    if (idea && idea.split(' ').length >= 15 && attempts >= 1) {
      return openAiReplies.toolCall('request_free_text', { prompt: 'Write down everything you remember about it.' }, { text: 'Take your time and write it out.' });
    }
    if (idea && attempts >= 2) {
      const subject = idea.split(' ').find((word) => /^[A-Z]/.test(word) && word !== 'The') ?? 'this';
      return openAiReplies.toolCall('present_choices', { prompt: `Which of these is true about ${subject}?`, options: ['None of these', idea, 'Something else entirely'] }, { text: 'Let me narrow it down.' });
    }
    return openAiReplies.text('Good — what else do you remember?');
  });
  console.log(`fake chat completions at ${fake.url}`);
}

void main();
