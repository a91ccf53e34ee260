/** Limits shared by the server (which enforces them) and the web client (which shows them). */
export const Limits = {
  /** Longest chat message a learner may send, in characters. */
  chatMessageMaxLength: 4000,
  /** Longest clientMessageId accepted for de-duplication. */
  clientMessageIdMaxLength: 128,
  /** Longest recall point content, in characters. */
  pointContentMaxLength: 2000,
  /** Longest optional point context, in characters. */
  pointContextMaxLength: 2000,
  /** Most points in one recall set. */
  pointsPerSetMax: 500,
  /** Longest recall set name. */
  setNameMaxLength: 120,
  /** Longest recall set description. */
  setDescriptionMaxLength: 2000,
  /** Longest text accepted by the Markdown / CSV import. */
  importTextMaxLength: 200_000,
  /** Longest free-text widget answer the server ever accepts (a widget may ask for less). */
  freeTextMaxLength: 4000,
  /** Longest code submitted through a code editor widget. */
  codeMaxLength: 20_000,
  /** Longest rabbit-hole topic. */
  rabbitholeTopicMaxLength: 200,
  /** Deepest nesting of arrays and objects in a WebSocket frame (the protocol needs 3). */
  frameMaxDepth: 16,
  /** Deepest nesting of arrays and objects in an HTTP JSON body. */
  bodyMaxDepth: 32,
} as const;

/** WebSocket close codes used by the server (4xxx: application-defined). */
export const CloseCodes = {
  /** Missing, malformed, expired or forged token. */
  unauthorized: 4401,
  /** The session belongs to another learner. */
  forbidden: 4403,
  /** No session with that id. */
  notFound: 4404,
  /** The server is shutting down; reconnect later. */
  goingAway: 1001,
  /** The server could not open the session (a fault on its side, logged). */
  internalError: 1011,
} as const;
export type CloseCode = (typeof CloseCodes)[keyof typeof CloseCodes];
