/**
 * The load generator of the connections row, in a process of its own (started by
 * `connection-run.ts` with an IPC channel), so the sockets' client side — 10,000 `ws` clients and
 * their buffers — shares neither the bench's heap nor its event loop. It reads the sockets'
 * URLs from the JSON file named in argv[2] and, on each request: opens sockets up to a count
 * (each waits for its session's greeting), runs one turn on every open socket, or closes all
 * and exits. Exits by itself if the bench goes away.
 */
import { readFileSync } from 'node:fs';
import { BenchSocket, learnerMessage } from './load-client';
import { mapWithLimit } from './statistics';

export type GeneratorRequest = { type: 'open'; upTo: number } | { type: 'turn'; inFlight: number } | { type: 'close' };

export type GeneratorReply =
  | { type: 'opened'; open: number; failures: string[]; seconds: number }
  | { type: 'turned'; turns: number; held: number; failures: string[]; seconds: number }
  | { type: 'closed' };

const urls = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as string[];
const sockets: BenchSocket[] = [];
let next = 0;

async function open(upTo: number): Promise<GeneratorReply> {
  const started = performance.now();
  const failures: string[] = [];
  const batch = urls.slice(next, Math.min(upTo, urls.length));
  next += batch.length;
  const opened = await mapWithLimit(batch, 50, async (url) => {
    try {
      const socket = await BenchSocket.open(url);
      await socket.waitForGreeting();
      return socket;
    } catch (error) {
      failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
      return null;
    }
  });
  for (const socket of opened) if (socket) sockets.push(socket);
  return { type: 'opened', open: sockets.filter((socket) => socket.isOpen).length, failures, seconds: (performance.now() - started) / 1000 };
}

/**
 * One turn on every socket, at most `inFlight` at once: 10,000 turns sent together would queue
 * longer than a client waits for its reply on a loaded machine, and the row is about holding
 * the sockets, not about the turn rate (the overhead rows measure that).
 */
async function turn(inFlight: number): Promise<GeneratorReply> {
  const started = performance.now();
  const failures: string[] = [];
  let turns = 0;
  await mapWithLimit(sockets, inFlight, async (socket, index) => {
    const outcome = await socket.turn(learnerMessage('hold', index, 1), `hold-${index}-1`, true);
    if (outcome.ok) turns += 1;
    else failures.push(outcome.error);
  });
  return { type: 'turned', turns, held: sockets.filter((socket) => socket.isOpen).length, failures, seconds: (performance.now() - started) / 1000 };
}

async function handle(request: GeneratorRequest): Promise<GeneratorReply> {
  if (request.type === 'open') return open(request.upTo);
  if (request.type === 'turn') return turn(request.inFlight);
  await mapWithLimit(sockets, 200, (socket) => socket.close());
  return { type: 'closed' };
}

process.on('message', (request: GeneratorRequest) => {
  handle(request).then(
    (reply) => {
      process.send?.(reply);
      if (reply.type === 'closed') process.disconnect();
    },
    (error: unknown) => {
      console.error(`connection generator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
