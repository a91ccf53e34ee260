/**
 * The thought partner port (SPEC §4.5, §7): the two model calls a thought session makes
 * besides the safety gate — the Socratic partner's reply (streamed) and the summariser, which
 * folds older messages into the stored summary and writes the closing summary. It is built in
 * this folder: over a model provider's models and any vendor transport (thought-model.ts), or
 * deterministically when the provider is offline (offline-thought-partner.ts); the registry
 * picks one (`thoughtPartnerFor`).
 */

/** Token counts of a call, when the provider knows them. */
export interface ThoughtUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A message of the conversation as the partner and the summariser read it. */
export interface ThoughtMessage {
  role: 'learner' | 'partner';
  content: string;
}

/** Everything the partner needs for one reply: bounded whatever the conversation's length. */
export interface ThoughtReplyInput {
  sessionId: string;
  topic: string | null;
  /** The stored summary of everything older than `recentMessages` ('' before the first refresh). */
  summary: string;
  /** The sliding window, oldest first; ends with the learner's message (empty for the opening). */
  recentMessages: ThoughtMessage[];
  /** A retry (SPEC §5): the reply being replaced, to be put another way. */
  replacing?: string;
}

export interface ThoughtSummaryInput {
  sessionId: string;
  topic: string | null;
  /** The summary so far ('' for none). */
  previousSummary: string;
  /** The messages to fold into it, oldest first. */
  messages: ThoughtMessage[];
  /** The closing summary of the whole conversation (the learner ended it), not a rolling one. */
  final: boolean;
}

export interface ThoughtSummaryCall {
  output: string;
  usage: ThoughtUsage | null;
  /** The model that answered (`offline` for the local partner). */
  model: string;
}

export interface ThoughtPartner {
  /** The partner's reply as text pieces, as they are produced. */
  reply(input: ThoughtReplyInput, signal: AbortSignal): AsyncIterable<string>;
  /** A summary (rolling or closing), plain text. */
  summarize(input: ThoughtSummaryInput, signal: AbortSignal): Promise<ThoughtSummaryCall>;
}
