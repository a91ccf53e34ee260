/**
 * The seeded frame generator of the WebSocket fuzzer (SPEC §5, §8: "no frame can kill the
 * server"). Pure: the same seed and options always give the same steps, byte for byte, so a
 * failing run is reproduced by passing its seed back. Nothing here does I/O or reads a clock.
 *
 * Each step is either a frame (its bytes, its target socket, and what the server must answer)
 * or a socket action (a graceful reconnect, an abrupt drop, a fresh throwaway session).
 *
 * What a frame must get is predicted in two layers, so the prediction does not lean on the
 * parser under test: the edge layer (binary, size over WS_MAX_FRAME_BYTES, nesting deeper than
 * `Limits.frameMaxDepth`, text that JSON.parse refuses) is computed from the bytes with this
 * file's own scanner; what a well-formed, shallow JSON value then gets (unknown type, invalid
 * payload, accepted) is known by construction. The unit test cross-checks every prediction
 * against the shared `parseClientMessage`.
 */
import { Limits, type ErrorCode } from '@tutorloop/shared';

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

/** mulberry32: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded random source with the few helpers the generator needs. */
export class SeededRandom {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A key drawn with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }
}

// ---------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------

/** The kinds of frames the fuzzer sends (a closed set: the report counts frames by kind). */
export const FrameKinds = {
  deepNesting: 'deep_nesting',
  hugeFrame: 'huge_frame',
  binary: 'binary',
  invalidUtf8: 'invalid_utf8',
  loneSurrogate: 'lone_surrogate',
  prototypeKeys: 'prototype_keys',
  wrongType: 'wrong_type',
  outOfRange: 'out_of_range',
  emptyFrame: 'empty_frame',
  truncatedJson: 'truncated_json',
  duplicateKeys: 'duplicate_keys',
  longStrings: 'long_strings',
  validChat: 'valid_chat',
  resendChat: 'resend_chat',
  widgetResponse: 'widget_response',
  rabbithole: 'rabbithole',
  endSession: 'end_session',
} as const;
export type FrameKind = (typeof FrameKinds)[keyof typeof FrameKinds];
export const frameKinds = Object.values(FrameKinds);

/** What the fuzzer does to its sockets between frames. */
export const SocketActions = {
  /** Drain the socket (wait until everything it sent was answered), close it, open a new one. */
  reconnect: 'reconnect',
  /** Terminate the TCP connection without a close handshake, then open a new socket. */
  drop: 'drop',
  /** Replace an ended throwaway session with a fresh one (new sockets). */
  newThrowaway: 'new_throwaway',
} as const;
export type SocketAction = (typeof SocketActions)[keyof typeof SocketActions];
export const socketActions = Object.values(SocketActions);

/** Which socket a step is for: a learner, one of their sessions, one of that session's sockets. */
export interface FrameTarget {
  learner: number;
  /** A main session (index), where chats go and which is never ended on purpose, or the throwaway one. */
  session: number | 'throwaway';
  socket: number;
}

/** Errors the session engine sends (after parsing), as opposed to the edge. */
export const roomErrorCodes: readonly ErrorCode[] = ['widget_not_pending', 'session_ended'];

export type FrameExpectation =
  /** A valid message: no `error` event (on a session that has not ended). */
  | { outcome: 'accepted' }
  /** Exactly one `error` event, with one of these codes. */
  | { outcome: 'error'; codes: readonly ErrorCode[] }
  /** Completed by the runner against the live session (widget answers). */
  | { outcome: 'runtime' };

/** A chat the server must store exactly once, and answer once. */
export interface ExpectedChat {
  /** The unique marker inside the text, e.g. `[fz42]`. */
  marker: string;
  /** The exact content the messages table must hold (made well-formed and trimmed). */
  content: string;
  clientMessageId: string | null;
}

export interface FrameStep {
  step: 'frame';
  index: number;
  kind: FrameKind;
  /** Which shape of the kind, for reports and reduction (e.g. `array-in-type depth=6000`). */
  variant: string;
  target: FrameTarget;
  /** The bytes on the wire (a text frame unless `binary`). Empty for runtime frames. */
  data: Buffer;
  binary: boolean;
  expect: FrameExpectation;
  /** True when the frame is (or, for an answer whose schema is not pinned, may be) a valid client message the session engine sees. */
  reachesRoom: boolean;
  chat: ExpectedChat | null;
  /** Markers in this frame that must never reach the database (refused or shadowed text). */
  forbiddenMarkers: string[];
  /** For `resend_chat`: the step index of the chat resent. */
  resendOf: number | null;
  /** For `widget_response`: how the runner answers the pending widget. */
  widgetAnswer: { roll: number; twice: boolean } | null;
  /** Set when this frame ends its (throwaway) session. */
  endsSession: boolean;
}

export interface SocketStep {
  step: 'socket';
  index: number;
  action: SocketAction;
  target: FrameTarget;
}

export type FuzzStep = FrameStep | SocketStep;

export interface FrameGeneratorOptions {
  seed: number;
  learners: number;
  /** Main sessions per learner. */
  mainSessions: number;
  socketsPerSession: number;
  /** The server's WS_MAX_FRAME_BYTES. */
  maxFrameBytes: number;
}

/** How often each kind is drawn. Valid frames are mixed in throughout. */
export const kindWeights: Readonly<Record<FrameKind, number>> = {
  deep_nesting: 7,
  huge_frame: 4,
  binary: 4,
  invalid_utf8: 6,
  lone_surrogate: 6,
  prototype_keys: 6,
  wrong_type: 12,
  out_of_range: 5,
  empty_frame: 4,
  truncated_json: 6,
  duplicate_keys: 5,
  long_strings: 6,
  valid_chat: 14,
  resend_chat: 2,
  widget_response: 4,
  rabbithole: 3,
  end_session: 1.5,
};

// ---------------------------------------------------------------------------
// The edge layer, predicted from the bytes alone
// ---------------------------------------------------------------------------

/** Decodes like the server: invalid sequences become U+FFFD, a BOM is kept. */
const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** The deepest `[`/`{` nesting outside strings. Written here, independently of json-guard.ts. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  for (const character of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (character === '\\') escaped = true;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === '[' || character === '{') {
      depth += 1;
      deepest = Math.max(deepest, depth);
    } else if (character === ']' || character === '}') {
      depth -= 1;
    }
  }
  return deepest;
}

/** The error the edge gives these bytes before any message schema is looked at, or null. */
export function edgeError(data: Buffer, binary: boolean, maxFrameBytes: number): ErrorCode | null {
  if (binary) return 'binary_not_supported';
  if (data.length > maxFrameBytes) return 'frame_too_large';
  const text = decodeUtf8(data);
  if (nestingDepth(text) > Limits.frameMaxDepth) return 'invalid_payload';
  try {
    JSON.parse(text);
  } catch {
    return 'invalid_json';
  }
  return null;
}

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

const vocabulary = [
  'amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'glacier', 'harbor', 'indigo', 'jasper',
  'kelp', 'lagoon', 'meadow', 'nectar', 'onyx', 'pebble', 'quartz', 'reef', 'saffron', 'tundra',
  'umber', 'violet', 'willow', 'yarrow', 'zephyr', 'lantern', 'thimble', 'marble', 'copper', 'sorrel',
] as const;

/** Invalid UTF-8: stray bytes, overlongs, encoded surrogates, code points past U+10FFFF, truncations. */
const invalidUtf8Sequences: ReadonlyArray<readonly number[]> = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xbf, 0x80, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc3],
];

const loneSurrogateEscapes = ['\\ud800', '\\udbff', '\\udc00', '\\udfff', '\\ud83d', '\\ude00', '\\udc00\\ud800', '\\ud83d\\ud83d'] as const;
/** What each escape above becomes once made well-formed. */
const loneSurrogateReplacement: Record<(typeof loneSurrogateEscapes)[number], string> = {
  '\\ud800': '\ufffd',
  '\\udbff': '\ufffd',
  '\\udc00': '\ufffd',
  '\\udfff': '\ufffd',
  '\\ud83d': '\ufffd',
  '\\ude00': '\ufffd',
  '\\udc00\\ud800': '\ufffd\ufffd',
  '\\ud83d\\ud83d': '\ufffd\ufffd',
};

const prototypeKeys = ['__proto__', 'constructor', 'prototype'] as const;
const objectMethodNames = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'] as const;

/** JSON values of every type, to put where another type belongs. */
const wrongValues: readonly string[] = ['0', '-1', '1.5', 'true', 'false', 'null', '[]', '{}', '[1,2]', '{"a":1}', '"x"', '""'];
const nonStringValues = wrongValues.filter((value) => !value.startsWith('"'));
const nonObjectValues = wrongValues.filter((value) => !value.startsWith('{'));

/** Number literals JSON.parse refuses. */
const badNumberLiterals = ['01', '1.', '.5', '+1', '0x10', 'Infinity', '-Infinity', 'NaN', '-', '1e', '1e+', '--1', '1_000'] as const;
/** Numbers JSON accepts that no field of ours takes as a string, an index or a length. */
const extremeNumbers = ['1e309', '-1e309', '1e-400', '-0', '9007199254740993', '1e21', '-2147483649', '4294967296', `1${'0'.repeat(400)}`, '0.1e-999999'] as const;

/** Text a learner might type, by construction free of the points' vocabulary. */
function phrase(random: SeededRandom, words: number): string {
  return Array.from({ length: words }, () => random.pick(vocabulary)).join(' ');
}

interface BuildContext {
  random: SeededRandom;
  index: number;
  maxFrameBytes: number;
  /** `[fz{index}]`, with a tag for further markers of the same frame (`[fz12x]`). */
  marker(tag?: string): string;
}

/** What a builder produced, before the edge layer is applied and a target is chosen. */
interface Built {
  variant: string;
  data: Buffer;
  binary?: boolean;
  /** What a frame that passes the edge gets: accepted, or an error with one of these codes. */
  semantic: 'accepted' | 'runtime' | readonly ErrorCode[];
  /** Where the frame may go: chats and valid ends of a session have their own kinds of session. */
  needs?: 'main' | 'throwaway' | 'any';
  chat?: ExpectedChat;
  forbidden?: string[];
  widgetAnswer?: { roll: number; twice: boolean };
  endsSession?: boolean;
  resendOf?: number;
}

type Builder = (context: BuildContext) => Built;

const text = (value: string) => Buffer.from(value, 'utf8');
const jsonString = (value: string) => JSON.stringify(value);

function chatJson(message: string, clientMessageId?: string, extra = ''): string {
  const id = clientMessageId === undefined ? '' : `,"clientMessageId":${jsonString(clientMessageId)}`;
  return `{"type":"chat","payload":{"message":${jsonString(message)}${id}${extra}}}`;
}

/** A valid chat: its text is unique (the marker) and expected back exactly, trimmed. */
function validChat(context: BuildContext, variant: string, options: { message?: string; clientMessageId?: string | null; extra?: string } = {}): Built {
  const { random } = context;
  const message = options.message ?? `${context.marker()} ${phrase(random, random.int(2, 8))}`;
  const clientMessageId = options.clientMessageId === undefined ? (random.chance(0.7) ? `c${context.index}-${random.int(0, 1e6)}` : null) : options.clientMessageId;
  return {
    variant,
    data: text(chatJson(message, clientMessageId ?? undefined, options.extra)),
    semantic: 'accepted',
    needs: 'main',
    chat: { marker: context.marker(), content: message.trim(), clientMessageId },
  };
}

function nest(open: 'array' | 'object', depth: number, inner: string): string {
  return open === 'array' ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** Depths from just over the limit to tens of thousands of levels (the biggest are also oversize). */
function deepDepth(random: SeededRandom): number {
  return random.pick([Limits.frameMaxDepth, Limits.frameMaxDepth + 1, 32, 100, 1000, 6000, 10_000, 20_000, 32_000, 40_000, random.int(17, 40_000)]);
}

/** A made-up widget id: no widget ever has it. */
const madeUpWidgetId = (context: BuildContext) => `fzw${context.index}`;
/** A widget answer to a made-up widget: if its shape is valid, the session says `widget_not_pending`. */
function widgetJson(widgetId: string, response: string): string {
  return `{"type":"widget_response","payload":{"widgetId":${jsonString(widgetId)},"response":${response}}}`;
}

// ---------------------------------------------------------------------------
// The kinds
// ---------------------------------------------------------------------------

const builders: Record<Exclude<FrameKind, 'resend_chat'>, readonly Builder[]> = {
  deep_nesting: [
    // Depth in `type` (the frame that once overflowed the stack), in `payload`, in nested fields.
    (context) => {
      const shape = context.random.pick(['array', 'object'] as const);
      const depth = deepDepth(context.random);
      return { variant: `${shape}-in-type depth=${depth}`, data: text(`{"type":${nest(shape, depth, '1')},"payload":{}}`), semantic: ['unknown_type'] };
    },
    (context) => {
      const shape = context.random.pick(['array', 'object'] as const);
      const depth = deepDepth(context.random);
      const type = context.random.pick(['chat', 'widget_response', 'rabbithole', 'end_session'] as const);
      return { variant: `${shape}-in-payload type=${type} depth=${depth}`, data: text(`{"type":"${type}","payload":${nest(shape, depth, '{}')}}`), semantic: ['invalid_payload'] };
    },
    (context) => {
      const shape = context.random.pick(['array', 'object'] as const);
      const depth = deepDepth(context.random);
      const field = context.random.pick(['message', 'clientMessageId', 'widgetId', 'response', 'text', 'topic', 'action'] as const);
      const inner = nest(shape, depth, jsonString(context.marker('x')));
      const marker = jsonString(context.marker('x'));
      const frames: Record<typeof field, string> = {
        message: `{"type":"chat","payload":{"message":${inner}}}`,
        clientMessageId: `{"type":"chat","payload":{"message":${marker},"clientMessageId":${inner}}}`,
        widgetId: `{"type":"widget_response","payload":{"widgetId":${inner},"response":{"text":"a"}}}`,
        response: widgetJson(madeUpWidgetId(context), inner),
        text: widgetJson(madeUpWidgetId(context), `{"text":${inner}}`),
        topic: `{"type":"rabbithole","payload":{"action":"enter","topic":${inner}}}`,
        action: `{"type":"rabbithole","payload":{"action":${inner},"topic":"t"}}`,
      };
      const frame = frames[field];
      return { variant: `${shape}-in-${field} depth=${depth}`, data: text(frame), semantic: ['invalid_payload'], forbidden: [context.marker('x')] };
    },
    // Nesting that is never closed: refused by depth before any parser runs.
    (context) => {
      const depth = deepDepth(context.random);
      return { variant: `unclosed depth=${depth}`, data: text(`{"type":"chat","payload":{"message":${'['.repeat(depth)}`), semantic: ['invalid_json'] };
    },
    // Brackets inside a string are not nesting: a valid chat, stored as sent.
    (context) => {
      const depth = context.random.int(17, 3000);
      const brackets = context.random.pick(['[', '{', '[{', '\\"[']);
      const raw = brackets.replaceAll('\\"', '"').repeat(Math.ceil(depth / brackets.length)).slice(0, depth);
      return validChat(context, `brackets-in-string depth=${depth}`, { message: `${context.marker()} ${raw} ${phrase(context.random, 2)}` });
    },
  ],

  huge_frame: [
    // A valid chat padded to exactly the limit: accepted. One byte more: refused.
    (context) => {
      const over = context.random.chance(0.5);
      const message = `${context.marker(over ? 'x' : '')} ${phrase(context.random, 3)}`;
      const clientMessageId = `c${context.index}`;
      const bare = chatJson(message, clientMessageId, ',"padding":""');
      const padding = context.maxFrameBytes - Buffer.byteLength(bare) + (over ? 1 : 0);
      const frame = chatJson(message, clientMessageId, `,"padding":"${'p'.repeat(padding)}"`);
      return over
        ? { variant: 'limit+1', data: text(frame), semantic: ['frame_too_large'], needs: 'main', forbidden: [context.marker('x')] }
        : validChat(context, 'exactly-limit', { message, clientMessageId, extra: `,"padding":"${'p'.repeat(padding)}"` });
    },
    // Over the limit, in bytes, from one byte to double.
    (context) => {
      const size = context.maxFrameBytes + context.random.pick([1, 2, 100, context.random.int(1, context.maxFrameBytes)]);
      const head = chatJson(context.marker('x')).slice(0, -2);
      const frame = `${head},"p":"${'q'.repeat(Math.max(0, size - head.length - 9))}"}}`;
      return { variant: `over size=${frame.length}`, data: text(frame), semantic: ['frame_too_large'], forbidden: [context.marker('x')] };
    },
    // Few characters, many bytes: the limit counts bytes, not UTF-16 units.
    (context) => {
      const characters = Math.ceil(context.maxFrameBytes / 2) + context.random.int(10, 1000);
      const message = `${context.marker('x')} ${'é'.repeat(characters)}`;
      return { variant: `multibyte chars=${characters}`, data: text(chatJson(message)), semantic: ['frame_too_large'], forbidden: [context.marker('x')] };
    },
    // Under the frame limit but over the message limit.
    (context) => {
      const length = Limits.chatMessageMaxLength + context.random.int(1, context.maxFrameBytes - Limits.chatMessageMaxLength - 200);
      const message = `${context.marker('x')} ${'m'.repeat(length)}`;
      return { variant: `long-message length=${length}`, data: text(chatJson(message)), semantic: ['invalid_payload'], forbidden: [context.marker('x')] };
    },
    // Exactly the limit, not JSON.
    (context) => ({ variant: 'limit-garbage', data: text('{'.padEnd(context.maxFrameBytes, 'z')), semantic: ['invalid_json'] }),
    (context) => ({ variant: 'limit+1-garbage', data: text('{'.padEnd(context.maxFrameBytes + 1, 'z')), semantic: ['frame_too_large'] }),
    // Whitespace up to the limit around a valid chat: JSON allows it.
    (context) => {
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      const frame = chatJson(message);
      const before = context.random.int(0, context.maxFrameBytes - frame.length);
      const padded = `${' '.repeat(before)}${frame}`.padEnd(context.maxFrameBytes, context.random.pick([' ', '\n', '\t', '\r']));
      return { ...validChat(context, 'whitespace-to-limit', { message, clientMessageId: null }), data: text(padded) };
    },
  ],

  binary: [
    (context) => {
      const length = context.random.pick([0, 1, 16, 1024, context.random.int(1, 4096)]);
      const bytes = Buffer.alloc(length);
      for (let index = 0; index < length; index += 1) bytes[index] = context.random.int(0, 255);
      return { variant: `random length=${length}`, data: bytes, binary: true, semantic: ['binary_not_supported'] };
    },
    // A valid chat, but binary: refused, and its text must not be stored.
    (context) => ({ variant: 'chat-as-binary', data: text(chatJson(`${context.marker('x')} ${phrase(context.random, 3)}`, `c${context.index}`)), binary: true, semantic: ['binary_not_supported'], forbidden: [context.marker('x')] }),
    (context) => ({ variant: 'end-session-as-binary', data: text('{"type":"end_session","payload":{}}'), binary: true, semantic: ['binary_not_supported'], needs: context.random.chance(0.5) ? 'main' : 'any' }),
    (context) => {
      const size = context.maxFrameBytes + context.random.int(1, 1000);
      return { variant: `oversize-binary size=${size}`, data: Buffer.alloc(size, 0x7b), binary: true, semantic: ['binary_not_supported'] };
    },
  ],

  invalid_utf8: [
    // Inside the message: decoded with U+FFFD, a valid chat, stored replaced.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const atEnd = context.random.chance(0.3);
      const head = Buffer.from(`${context.marker()} ${phrase(context.random, 2)} `);
      const tail = atEnd ? Buffer.alloc(0) : Buffer.from(` ${phrase(context.random, 2)}`);
      const messageBytes = Buffer.concat([head, sequence, tail]);
      const data = Buffer.concat([Buffer.from('{"type":"chat","payload":{"message":"'), messageBytes, Buffer.from(`","clientMessageId":"c${context.index}"}}`)]);
      return {
        variant: `in-message bytes=${sequence.toString('hex')}${atEnd ? ' at-end' : ''}`,
        data,
        semantic: 'accepted',
        needs: 'main',
        chat: { marker: context.marker(), content: decodeUtf8(messageBytes).trim(), clientMessageId: `c${context.index}` },
      };
    },
    // Inside the clientMessageId: still a valid chat.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const idBytes = Buffer.concat([Buffer.from(`c${context.index}-`), sequence]);
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      const data = Buffer.concat([Buffer.from(`{"type":"chat","payload":{"message":${jsonString(message)},"clientMessageId":"`), idBytes, Buffer.from('"}}')]);
      return { variant: `in-client-id bytes=${sequence.toString('hex')}`, data, semantic: 'accepted', needs: 'main', chat: { marker: context.marker(), content: message, clientMessageId: decodeUtf8(idBytes) } };
    },
    // In the type's value or in a key: no such type.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const inKey = context.random.chance(0.5);
      const data = inKey
        ? Buffer.concat([Buffer.from('{"ty'), sequence, Buffer.from(`pe":"chat","payload":{"message":${jsonString(context.marker('x'))}}}`)])
        : Buffer.concat([Buffer.from('{"type":"ch'), sequence, Buffer.from(`at","payload":{"message":${jsonString(context.marker('x'))}}}`)]);
      return { variant: `${inKey ? 'in-key' : 'in-type'} bytes=${sequence.toString('hex')}`, data, semantic: ['unknown_type'], forbidden: [context.marker('x')] };
    },
    // Between tokens: not JSON.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const data = Buffer.concat([Buffer.from('{"type":"chat",'), sequence, Buffer.from(`"payload":{"message":${jsonString(context.marker('x'))}}}`)]);
      return { variant: `between-tokens bytes=${sequence.toString('hex')}`, data, semantic: ['invalid_json'], forbidden: [context.marker('x')] };
    },
    // A byte-order mark, then a valid chat: U+FEFF is not JSON whitespace.
    (context) => ({ variant: 'bom-prefix', data: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text(chatJson(context.marker('x')))]), semantic: ['invalid_json'], forbidden: [context.marker('x')] }),
    // In a rabbit-hole topic: a valid mode change.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const data = Buffer.concat([Buffer.from(`{"type":"rabbithole","payload":{"action":"enter","topic":"${context.marker()} `), sequence, Buffer.from(' tangent"}}')]);
      return { variant: `in-topic bytes=${sequence.toString('hex')}`, data, semantic: 'accepted' };
    },
    // In a widget answer to a widget that is not pending.
    (context) => {
      const sequence = Buffer.from(context.random.pick(invalidUtf8Sequences));
      const data = Buffer.concat([Buffer.from(`{"type":"widget_response","payload":{"widgetId":"${madeUpWidgetId(context)}","response":{"text":"${context.marker('x')} `), sequence, Buffer.from('"}}}')]);
      return { variant: `in-widget-text bytes=${sequence.toString('hex')}`, data, semantic: ['widget_not_pending'], forbidden: [context.marker('x')] };
    },
  ],

  lone_surrogate: [
    (context) => {
      const escape = context.random.pick(loneSurrogateEscapes);
      const head = `${context.marker()} ${phrase(context.random, 2)} `;
      const atEnd = context.random.chance(0.3);
      const tail = atEnd ? '' : ` ${phrase(context.random, 2)}`;
      const clientMessageId = `c${context.index}`;
      return {
        variant: `in-message ${escape}${atEnd ? ' at-end' : ''}`,
        data: text(`{"type":"chat","payload":{"message":"${head}${escape}${tail}","clientMessageId":"${clientMessageId}"}}`),
        semantic: 'accepted',
        needs: 'main',
        chat: { marker: context.marker(), content: `${head}${loneSurrogateReplacement[escape]}${tail}`.trim(), clientMessageId },
      };
    },
    // A whole pair written as escapes stays an emoji.
    (context) => {
      const head = `${context.marker()} ${phrase(context.random, 2)}`;
      return {
        variant: 'escaped-pair',
        data: text(`{"type":"chat","payload":{"message":"${head} \\ud83d\\ude00 \\u00e9"}}`),
        semantic: 'accepted',
        needs: 'main',
        chat: { marker: context.marker(), content: `${head} 😀 é`, clientMessageId: null },
      };
    },
    (context) => {
      const escape = context.random.pick(loneSurrogateEscapes);
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      return {
        variant: `in-client-id ${escape}`,
        data: text(`{"type":"chat","payload":{"message":${jsonString(message)},"clientMessageId":"c${context.index}${escape}"}}`),
        semantic: 'accepted',
        needs: 'main',
        chat: { marker: context.marker(), content: message, clientMessageId: `c${context.index}${loneSurrogateReplacement[escape]}` },
      };
    },
    (context) => {
      const escape = context.random.pick(loneSurrogateEscapes);
      const inKey = context.random.chance(0.5);
      const frame = inKey ? `{"type${escape}":"chat","payload":{"message":"${context.marker('x')}"}}` : `{"type":"chat${escape}","payload":{"message":"${context.marker('x')}"}}`;
      return { variant: `${inKey ? 'in-key' : 'in-type'} ${escape}`, data: text(frame), semantic: ['unknown_type'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const escape = context.random.pick(loneSurrogateEscapes);
      return { variant: `in-topic ${escape}`, data: text(`{"type":"rabbithole","payload":{"action":"enter","topic":"${context.marker()} ${escape}"}}`), semantic: 'accepted' };
    },
    // A lone surrogate in a JS string, not escaped: UTF-8 encoding (Buffer.from, as ws does) already made it U+FFFD.
    (context) => {
      const message = `${context.marker()} raw \ud800 ${phrase(context.random, 2)}`;
      return {
        variant: 'raw-in-js-string',
        data: text(`{"type":"chat","payload":{"message":"${message}"}}`),
        semantic: 'accepted',
        needs: 'main',
        chat: { marker: context.marker(), content: message.replace('\ud800', '\ufffd'), clientMessageId: null },
      };
    },
    // Only a lone surrogate: well-formed it is U+FFFD, not empty, so a valid chat.
    (context) => ({
      variant: 'only-surrogate-with-marker',
      data: text(`{"type":"chat","payload":{"message":"\\udfff${context.marker()}"}}`),
      semantic: 'accepted',
      needs: 'main',
      chat: { marker: context.marker(), content: `\ufffd${context.marker()}`, clientMessageId: null },
    }),
  ],

  prototype_keys: [
    // Extra prototype keys in a chat payload are stripped: a valid chat.
    (context) => {
      const key = context.random.pick(prototypeKeys);
      return validChat(context, `extra-${key}-in-payload`, { extra: `,"${key}":{"polluted":true,"prototype":{"polluted":true}}` });
    },
    (context) => {
      const key = context.random.pick(prototypeKeys);
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      return {
        ...validChat(context, `extra-${key}-top-level`, { message, clientMessageId: null }),
        data: text(`{"${key}":{"type":"end_session","polluted":true},"type":"chat","payload":{"message":${jsonString(message)}}}`),
      };
    },
    // The type only through the prototype: there is no type.
    (context) => ({ variant: 'type-via-__proto__', data: text(`{"__proto__":{"type":"chat","payload":{"message":"${context.marker('x')}"}}}`), semantic: ['unknown_type'], forbidden: [context.marker('x')] }),
    (context) => ({ variant: 'message-via-__proto__', data: text(`{"type":"chat","payload":{"__proto__":{"message":"${context.marker('x')}"}}}`), semantic: ['invalid_payload'], forbidden: [context.marker('x')] }),
    (context) => {
      const name = context.random.pick(objectMethodNames);
      return { variant: `type=${name}`, data: text(`{"type":"${name}","payload":{}}`), semantic: ['unknown_type'] };
    },
    (context) => {
      const key = context.random.pick(prototypeKeys);
      return { variant: `client-id-object-${key}`, data: text(`{"type":"chat","payload":{"message":"${context.marker('x')}","clientMessageId":{"${key}":"c"}}}`), semantic: ['invalid_payload'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const key = context.random.pick(prototypeKeys);
      return { variant: `widget-response-${key}`, data: text(widgetJson(madeUpWidgetId(context), `{"${key}":{"text":"x","selectedIndex":0}}`)), semantic: ['invalid_payload'] };
    },
    (context) => {
      const name = context.random.pick(objectMethodNames);
      return { variant: `rabbithole-action=${name}`, data: text(`{"type":"rabbithole","payload":{"action":"${name}","topic":"t"}}`), semantic: ['invalid_payload'] };
    },
    // Ends a (throwaway) session: the extra keys are stripped.
    (context) => {
      const key = context.random.pick(prototypeKeys);
      return { variant: `end-session-${key}`, data: text(`{"type":"end_session","payload":{"${key}":{"polluted":true}}}`), semantic: 'accepted', needs: 'throwaway', endsSession: true };
    },
  ],

  wrong_type: [
    (context) => {
      const value = context.random.pick(nonStringValues);
      return { variant: `type=${value}`, data: text(`{"type":${value},"payload":{"message":"${context.marker('x')}"}}`), semantic: ['unknown_type'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const type = context.random.pick(['chat', 'widget_response', 'rabbithole', 'end_session'] as const);
      const value = context.random.pick([...nonObjectValues, 'missing']);
      const frame = value === 'missing' ? `{"type":"${type}"}` : `{"type":"${type}","payload":${value}}`;
      return { variant: `${type}.payload=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick([...nonStringValues, '""', '"   "', '"\\n\\t"', 'missing']);
      const frame = value === 'missing' ? `{"type":"chat","payload":{"clientMessageId":"c${context.index}"}}` : `{"type":"chat","payload":{"message":${value},"clientMessageId":"c${context.index}"}}`;
      return { variant: `chat.message=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick([...nonStringValues, '""']);
      return { variant: `chat.clientMessageId=${value}`, data: text(`{"type":"chat","payload":{"message":"${context.marker('x')}","clientMessageId":${value}}}`), semantic: ['invalid_payload'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const value = context.random.pick([...nonStringValues, '""', 'missing']);
      const frame = value === 'missing' ? `{"type":"widget_response","payload":{"response":{"text":"a"}}}` : widgetJson('w', '{"text":"a"}').replace('"widgetId":"w"', `"widgetId":${value}`);
      return { variant: `widget_response.widgetId=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick([...wrongValues, 'missing', '{"selectedIndex":"1"}', '{"text":1}', '{"code":1,"language":"python"}', '{"code":"x","language":"cobol"}', '{"code":"x"}', '{"text":"a","selectedIndex":0}', '{"selectedIndex":null}', '{"text":null}']);
      const frame = value === 'missing' ? `{"type":"widget_response","payload":{"widgetId":"${madeUpWidgetId(context)}"}}` : widgetJson(madeUpWidgetId(context), value);
      return { variant: `widget_response.response=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick([...nonStringValues, '"ENTER"', '"enter "', '""', 'missing']);
      const frame = value === 'missing' ? '{"type":"rabbithole","payload":{"topic":"t"}}' : `{"type":"rabbithole","payload":{"action":${value},"topic":"t"}}`;
      return { variant: `rabbithole.action=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick([...nonStringValues, '""', '"   "', 'missing']);
      const frame = value === 'missing' ? '{"type":"rabbithole","payload":{"action":"enter"}}' : `{"type":"rabbithole","payload":{"action":"enter","topic":${value}}}`;
      return { variant: `rabbithole.topic=${value}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    // SPEC §5 also names stop and retry; whether the server knows them yet or not, a wrongly typed one is refused.
    (context) => {
      const frame = context.random.pick(['{"type":"stop","payload":[]}', '{"type":"stop","payload":null}', '{"type":"stop"}', '{"type":"retry","payload":{"messageId":42}}', '{"type":"retry","payload":{}}', '{"type":"retry","payload":{"messageId":null}}', '{"type":"retry","payload":"m"}']);
      return { variant: `spec-only ${frame}`, data: text(frame), semantic: ['unknown_type', 'invalid_payload'] };
    },
    (context) => {
      const type = context.random.pick(['Chat', 'CHAT', 'chat ', ' chat', 'chat\\u0000', 'end-session', 'endSession', 'widgetResponse', 'rabbit_hole', 'message', 'typing', 'assistant', 'error', 'state_update', 'history']);
      return { variant: `type="${type}"`, data: text(`{"type":"${type}","payload":{"message":"${context.marker('x')}"}}`), semantic: ['unknown_type'], forbidden: [context.marker('x')] };
    },
  ],

  out_of_range: [
    (context) => {
      const value = context.random.pick(['-1', '1.5', '1e309', '-1e309', '-0.5', '1e-400', '-0', '0', '9007199254740993', '1e21', '4294967296', '"0"']);
      // Out of range for the schema → invalid_payload; a valid index for no pending widget → widget_not_pending.
      const valid = ['1e-400', '-0', '0', '4294967296'].includes(value);
      return { variant: `selectedIndex=${value}`, data: text(widgetJson(madeUpWidgetId(context), `{"selectedIndex":${value}}`)), semantic: valid ? ['widget_not_pending'] : ['invalid_payload'] };
    },
    (context) => {
      const value = context.random.pick(['1e309', '-1e309', '3', '0', '-1', '1.5', '9007199254740993']);
      // The rating answer of SPEC §5 ({"value":n}) may or may not be in the schema yet.
      return { variant: `rating.value=${value}`, data: text(widgetJson(madeUpWidgetId(context), `{"value":${value}}`)), semantic: value.includes('e309') ? ['invalid_payload'] : ['invalid_payload', 'widget_not_pending'] };
    },
    (context) => {
      const value = context.random.pick(extremeNumbers);
      const field = context.random.pick(['message', 'clientMessageId', 'topic', 'widgetId'] as const);
      const frame =
        field === 'message'
          ? `{"type":"chat","payload":{"message":${value}}}`
          : field === 'clientMessageId'
            ? `{"type":"chat","payload":{"message":"${context.marker('x')}","clientMessageId":${value}}}`
            : field === 'topic'
              ? `{"type":"rabbithole","payload":{"action":"enter","topic":${value}}}`
              : `{"type":"widget_response","payload":{"widgetId":${value},"response":{"text":"a"}}}`;
      return { variant: `${field}=${value.slice(0, 24)}`, data: text(frame), semantic: ['invalid_payload'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const literal = context.random.pick(badNumberLiterals);
      return { variant: `literal=${literal}`, data: text(`{"type":"chat","payload":{"message":"${context.marker('x')}","n":${literal}}}`), semantic: ['invalid_json'], forbidden: [context.marker('x')] };
    },
    // A number as long as a frame can hold: parsed to Infinity, refused as a type.
    (context) => {
      const digits = context.random.int(1000, context.maxFrameBytes - 100);
      return { variant: `digits=${digits}`, data: text(`{"type":${'9'.repeat(digits)},"payload":{}}`), semantic: ['unknown_type'] };
    },
  ],

  empty_frame: [
    (context) => {
      const frame = context.random.pick(['', ' ', '\n', '\t\r\n ', ' '.repeat(1000), '\u00a0', '\u0000', '\ufeff', '\u2028']);
      return { variant: `blank=${JSON.stringify(frame.slice(0, 8))}x${frame.length}`, data: text(frame), semantic: ['invalid_json'] };
    },
    (context) => {
      const frame = context.random.pick(['[]', 'null', '0', '""', 'true', '"chat"', '[{"type":"chat","payload":{"message":"hi"}}]', '1e309']);
      return { variant: `not-an-object=${frame.slice(0, 20)}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    (context) => {
      const frame = context.random.pick(['{}', '{"type":""}', '{"type":"","payload":{}}', '{"payload":{"message":"hi"}}', '{"type":null}']);
      return { variant: `no-type=${frame}`, data: text(frame), semantic: ['unknown_type'] };
    },
    (context) => {
      const frame = context.random.pick(['{"type":"chat"}', '{"type":"chat","payload":{}}', '{"type":"chat","payload":null}', '{"type":"chat","payload":{"message":""}}', '{"type":"chat","payload":{"message":"    "}}', '{"type":"rabbithole","payload":{}}', '{"type":"widget_response","payload":{}}']);
      return { variant: `empty-payload=${frame}`, data: text(frame), semantic: ['invalid_payload'] };
    },
    // Whitespace around a valid frame is allowed by JSON.
    (context) => {
      const message = `${context.marker()} ${phrase(context.random, 2)}`;
      const pad = () => context.random.pick([' ', '\n', '\t', '\r\n', '  \n\t ']);
      return { ...validChat(context, 'whitespace-around', { message, clientMessageId: null }), data: text(`${pad()}${chatJson(message)}${pad()}`) };
    },
    // Whitespace around the message is trimmed; the chat is stored without it.
    (context) => {
      const message = `   ${context.marker()} ${phrase(context.random, 2)} \n\t `;
      return validChat(context, 'padded-message', { message });
    },
  ],

  truncated_json: [
    (context) => {
      const sources = [
        chatJson(`${context.marker('x')} ${phrase(context.random, 4)}`, `c${context.index}`),
        chatJson(`${context.marker('x')} naïve 日本語 😀 ${phrase(context.random, 2)}`),
        widgetJson('w', '{"selectedIndex":1}'),
        `{"type":"rabbithole","payload":{"action":"enter","topic":"${context.marker('x')}"}}`,
        '{"type":"end_session","payload":{}}',
        `{"type":"chat","payload":{"message":"${context.marker('x')}","deep":${nest('array', 12, '1')}}}`,
      ];
      const source = Buffer.from(context.random.pick(sources));
      // Cut in bytes, so a cut may fall inside a multi-byte character too.
      const cut = context.random.int(0, source.length - 1);
      return { variant: `cut=${cut}/${source.length}`, data: source.subarray(0, cut), semantic: ['invalid_json'], forbidden: [context.marker('x')] };
    },
    (context) => {
      const frame = context.random.pick([
        `${chatJson(context.marker('x'))}}`,
        `${chatJson(context.marker('x'))}${chatJson(context.marker('y'))}`,
        `${chatJson(context.marker('x'))},`,
        `${chatJson(context.marker('x'))} x`,
        `{"type":"chat","payload":{"message":"${context.marker('x')}",}}`,
        `{"type":"chat","payload":{"message":'${context.marker('x')}'}}`,
        `{type:"chat","payload":{"message":"${context.marker('x')}"}}`,
        `{"type":"chat","payload":{"message":"${context.marker('x')}\u0001"}}`,
        `{"type":"chat","payload":{"message":"${context.marker('x')}\\x41"}}`,
        `{"type":"chat","payload":{"message":"${context.marker('x')}\\u12"}}`,
        '{"type":"chat" "payload":{}}',
        '{"type":"chat",,"payload":{}}',
        '/* c */ {"type":"end_session","payload":{}}',
      ]);
      return { variant: `malformed=${frame.slice(0, 40)}`, data: text(frame), semantic: ['invalid_json'], forbidden: [context.marker('x'), context.marker('y')] };
    },
  ],

  duplicate_keys: [
    // The last key wins (JSON.parse): a chat whose first type said end_session.
    (context) => {
      const shadow = `${context.marker('x')} shadowed`;
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      return {
        ...validChat(context, 'type-end_session-then-chat', { message, clientMessageId: null }),
        data: text(`{"type":"end_session","type":"chat","payload":{"message":${jsonString(shadow)}},"payload":{"message":${jsonString(message)}}}`),
        forbidden: [context.marker('x')],
      };
    },
    (context) => {
      const shadow = `${context.marker('x')} shadowed`;
      const message = `${context.marker()} ${phrase(context.random, 3)}`;
      const clientMessageId = `c${context.index}-b`;
      return {
        ...validChat(context, 'message-and-id-twice', { message, clientMessageId }),
        data: text(`{"type":"chat","payload":{"message":${jsonString(shadow)},"clientMessageId":"c${context.index}-a","message":${jsonString(message)},"clientMessageId":"${clientMessageId}"}}`),
        forbidden: [context.marker('x')],
      };
    },
    (context) => ({ variant: 'payload-then-number', data: text(`{"type":"chat","payload":{"message":"${context.marker('x')}"},"payload":5}`), semantic: ['invalid_payload'], forbidden: [context.marker('x')] }),
    (context) => ({ variant: 'type-chat-then-unknown', data: text(`{"type":"chat","payload":{"message":"${context.marker('x')}"},"type":"nope"}`), semantic: ['unknown_type'], forbidden: [context.marker('x')] }),
    (context) => {
      const copies = context.random.int(2, 4000);
      return {
        ...validChat(context, `type-repeated x${copies}`, { clientMessageId: null }),
        data: text(`{${'"type":"chat",'.repeat(copies)}"payload":{"message":${jsonString(`${context.marker()} repeated`)}}}`),
        chat: { marker: context.marker(), content: `${context.marker()} repeated`, clientMessageId: null },
      };
    },
    (context) => ({ variant: 'action-exit-then-enter', data: text('{"type":"rabbithole","payload":{"action":"exit","action":"enter"}}'), semantic: ['invalid_payload'] }),
    (context) => ({ variant: 'action-enter-then-exit', data: text(`{"type":"rabbithole","payload":{"action":"enter","topic":"${context.marker()}","action":"exit"}}`), semantic: 'accepted' }),
    (context) => ({ variant: 'type-chat-then-end_session', data: text(`{"type":"chat","payload":{},"type":"end_session"}`), semantic: 'accepted', needs: 'throwaway', endsSession: true }),
  ],

  long_strings: [
    (context) => {
      const over = context.random.chance(0.5);
      const head = `${context.marker(over ? 'x' : '')} `;
      const fill = context.random.pick(['a', 'é', '日', 'ab ']);
      const length = Limits.chatMessageMaxLength + (over ? 1 : 0);
      const message = `${head}${fill.repeat(length)}`.slice(0, length - 1) + 'z';
      return over
        ? { variant: `message length=${length}`, data: text(chatJson(message)), semantic: ['invalid_payload'], forbidden: [context.marker('x')] }
        : validChat(context, `message length=${length} fill=${fill}`, { message });
    },
    // Emoji count twice in UTF-16: 4000 units exactly is accepted.
    (context) => {
      const head = `${context.marker()} `;
      const message = `${head}${'😀'.repeat(Math.floor((Limits.chatMessageMaxLength - head.length) / 2))}`.padEnd(Limits.chatMessageMaxLength, 'z');
      return validChat(context, `emoji-message units=${message.length}`, { message });
    },
    (context) => {
      const over = context.random.chance(0.5);
      const length = Limits.clientMessageIdMaxLength + (over ? 1 : 0);
      const clientMessageId = `c${context.index}-`.padEnd(length, 'i');
      const message = `${context.marker(over ? 'x' : '')} ${phrase(context.random, 2)}`;
      return over
        ? { variant: `client-id length=${length}`, data: text(chatJson(message, clientMessageId)), semantic: ['invalid_payload'], forbidden: [context.marker('x')] }
        : validChat(context, `client-id length=${length}`, { message, clientMessageId });
    },
    (context) => {
      const length = context.random.int(1000, context.maxFrameBytes - 200);
      return { variant: `widget-id length=${length}`, data: text(widgetJson(`fzw${context.index}-`.padEnd(length, 'w'), '{"selectedIndex":0}')), semantic: ['widget_not_pending'] };
    },
    (context) => {
      const length = context.random.int(41, context.maxFrameBytes - 100);
      return { variant: `type length=${length}`, data: text(`{"type":"${'t'.repeat(length)}","payload":{}}`), semantic: ['unknown_type'] };
    },
    (context) => {
      const over = context.random.chance(0.5);
      const length = Limits.rabbitholeTopicMaxLength + (over ? 1 : 0);
      const topic = `${context.marker()} `.padEnd(length, 't');
      return { variant: `topic length=${length}`, data: text(`{"type":"rabbithole","payload":{"action":"enter","topic":${jsonString(topic)}}}`), semantic: over ? ['invalid_payload'] : 'accepted' };
    },
    (context) => {
      const over = context.random.chance(0.5);
      const length = Limits.freeTextMaxLength + (over ? 1 : 0);
      return { variant: `widget-text length=${length}`, data: text(widgetJson(madeUpWidgetId(context), `{"text":"${'x'.repeat(length)}"}`)), semantic: over ? ['invalid_payload'] : ['widget_not_pending'] };
    },
    (context) => {
      const over = context.random.chance(0.5);
      const length = Limits.codeMaxLength + (over ? 1 : 0);
      return { variant: `widget-code length=${length}`, data: text(widgetJson(madeUpWidgetId(context), `{"code":"${'#'.repeat(length)}","language":"python"}`)), semantic: over ? ['invalid_payload'] : ['widget_not_pending'] };
    },
    // A very long unknown key is stripped: a valid chat.
    (context) => {
      const length = context.random.int(1000, context.maxFrameBytes - 400);
      return validChat(context, `long-key length=${length}`, { extra: `,"${'k'.repeat(length)}":1` });
    },
  ],

  valid_chat: [
    (context) => validChat(context, 'plain'),
    (context) => validChat(context, 'unicode', { message: `${context.marker()} ${phrase(context.random, 2)} — naïve café 日本語 e\u0301 😀 ${phrase(context.random, 1)}` }),
    (context) => validChat(context, 'no-client-id', { clientMessageId: null }),
    (context) => validChat(context, 'multiline', { message: `${context.marker()} ${phrase(context.random, 2)}\n${phrase(context.random, 3)}\n\n${phrase(context.random, 1)}` }),
  ],

  widget_response: [
    (context) => ({ variant: 'answer-pending', data: Buffer.alloc(0), semantic: 'runtime', needs: 'main', widgetAnswer: { roll: context.random.float(), twice: false } }),
    (context) => ({ variant: 'answer-pending-twice', data: Buffer.alloc(0), semantic: 'runtime', needs: 'main', widgetAnswer: { roll: context.random.float(), twice: true } }),
  ],

  rabbithole: [
    (context) => ({ variant: 'enter', data: text(`{"type":"rabbithole","payload":{"action":"enter","topic":${jsonString(`  ${context.marker()} ${phrase(context.random, 2)} `)}}}`), semantic: 'accepted' }),
    () => ({ variant: 'exit', data: text('{"type":"rabbithole","payload":{"action":"exit"}}'), semantic: 'accepted' }),
    // An exit that also names a topic: the topic is stripped.
    () => ({ variant: 'exit-with-topic', data: text('{"type":"rabbithole","payload":{"action":"exit","topic":"ignored"}}'), semantic: 'accepted' }),
  ],

  end_session: [
    () => ({ variant: 'plain', data: text('{"type":"end_session","payload":{}}'), semantic: 'accepted', needs: 'throwaway', endsSession: true }),
    () => ({ variant: 'extra-keys', data: text('{"type":"end_session","payload":{"reason":"bored","n":1}}'), semantic: 'accepted', needs: 'throwaway', endsSession: true }),
  ],
};

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

interface SentChat {
  index: number;
  target: FrameTarget;
  data: Buffer;
  chat: ExpectedChat;
}

/**
 * Yields `count` steps (frames and socket actions) for `options.seed`. Lazy, so the big
 * frames of a long run are never all in memory at once.
 */
export function* generateSteps(options: FrameGeneratorOptions, count: number): Generator<FuzzStep> {
  const random = new SeededRandom(options.seed);
  const throwawayEnded = Array.from({ length: options.learners }, () => false);
  const resendable: SentChat[] = [];

  const pickTarget = (needs: 'main' | 'throwaway' | 'any'): FrameTarget => {
    const learner = random.int(0, options.learners - 1);
    const throwaway = needs === 'throwaway' || (needs === 'any' && random.chance(0.2));
    return { learner, session: throwaway ? 'throwaway' : random.int(0, options.mainSessions - 1), socket: random.int(0, options.socketsPerSession - 1) };
  };

  for (let index = 0; index < count; index += 1) {
    // Socket actions between frames: reconnects, abrupt drops, fresh throwaway sessions.
    const roll = random.float();
    if (roll < 0.008 || (roll < 0.011 && index > 0)) {
      yield { step: 'socket', index, action: roll < 0.008 ? 'reconnect' : 'drop', target: pickTarget('any') };
      continue;
    }
    const ended = throwawayEnded.flatMap((isEnded, learner) => (isEnded ? [learner] : []));
    if (ended.length > 0 && random.chance(0.04)) {
      const learner = random.pick(ended);
      throwawayEnded[learner] = false;
      yield { step: 'socket', index, action: 'new_throwaway', target: { learner, session: 'throwaway', socket: 0 } };
      continue;
    }

    const kind = random.weighted(kindWeights);
    const context: BuildContext = { random, index, maxFrameBytes: options.maxFrameBytes, marker: (tag = '') => `[fz${index}${tag}]` };
    let built: Built;
    if (kind === 'resend_chat') {
      const original = resendable.length > 0 ? random.pick(resendable) : null;
      if (!original) {
        built = validChat(context, 'plain (nothing to resend yet)');
      } else if (random.chance(0.7)) {
        built = { variant: `same-frame of #${original.index}`, data: original.data, semantic: 'accepted', needs: 'main', resendOf: original.index };
      } else {
        // Same clientMessageId, other text: still the first message, the new text is never stored.
        const message = `${context.marker('x')} ${phrase(random, 3)}`;
        built = { variant: `same-id-other-text of #${original.index}`, data: text(chatJson(message, original.chat.clientMessageId!)), semantic: 'accepted', needs: 'main', resendOf: original.index, forbidden: [context.marker('x')] };
      }
    } else {
      built = random.pick(builders[kind])(context);
    }

    const resent = built.resendOf === undefined ? null : (resendable.find((entry) => entry.index === built.resendOf) ?? null);
    const target = resent ? resent.target : pickTarget(built.chat ? 'main' : (built.needs ?? 'any'));
    const binary = built.binary ?? false;
    const forbidden = [...(built.forbidden ?? [])];
    let chat = built.chat ?? null;
    let expect: FrameExpectation;
    let reachesRoom: boolean;
    let endsSession = built.endsSession ?? false;
    if (built.semantic === 'runtime') {
      expect = { outcome: 'runtime' };
      reachesRoom = true;
    } else {
      const edge = edgeError(built.data, binary, options.maxFrameBytes);
      if (edge) {
        expect = { outcome: 'error', codes: [edge] };
        reachesRoom = false;
      } else if (built.semantic === 'accepted') {
        expect = { outcome: 'accepted' };
        reachesRoom = true;
      } else {
        expect = { outcome: 'error', codes: built.semantic };
        reachesRoom = built.semantic.some((code) => roomErrorCodes.includes(code));
      }
      if (!reachesRoom && chat) {
        // Refused at the edge: the chat must not be stored.
        forbidden.push(chat.marker);
        chat = null;
      }
      if (!reachesRoom) endsSession = false;
    }
    if (target.session === 'throwaway' && reachesRoom && expect.outcome !== 'runtime') {
      // Every operation on an ended session is refused; one that is not ended yet may end it.
      if (throwawayEnded[target.learner]) {
        // Codes the schema may still give (an answer whose shape is not pinned) stay possible.
        const schemaCodes = expect.outcome === 'error' ? expect.codes.filter((code) => !roomErrorCodes.includes(code)) : [];
        expect = { outcome: 'error', codes: [...schemaCodes, 'session_ended'] };
        endsSession = false;
      } else if (endsSession) {
        throwawayEnded[target.learner] = true;
      }
    }
    if (chat?.clientMessageId && !resent) {
      resendable.push({ index, target, data: built.data, chat });
      if (resendable.length > 32) resendable.shift();
    }
    yield {
      step: 'frame',
      index,
      kind,
      variant: built.variant,
      target,
      data: built.data,
      binary,
      expect,
      reachesRoom,
      chat,
      forbiddenMarkers: forbidden,
      resendOf: built.resendOf ?? null,
      widgetAnswer: built.widgetAnswer ?? null,
      endsSession,
    };
  }
}

/** All markers a stored text carries, e.g. `[fz42]` and `[fz42x]`. */
export function markersIn(content: string): string[] {
  return content.match(/\[fz\d+[a-z]?\]/g) ?? [];
}
