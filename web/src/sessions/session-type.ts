import type {
  CreateSessionBody,
  ProgressStats,
  RecallSetSummary,
  SessionDetail,
  SessionHistoryItem,
  SessionState,
  SessionSummary,
} from '@tutorloop/shared';
import type { ComponentType } from 'react';
import type { Route } from '../store/router-store';

/** How a `GET /api/sessions/{id}` went: the "start again" of a recall session reads the session's set there. */
export type SessionLookupResult = { ok: true; value: SessionDetail } | { ok: false; error: { message: string } };

export interface StartAgainInput {
  sessionId: string;
  summary: SessionSummary;
  getSession(sessionId: string): Promise<SessionLookupResult>;
}

/** The body of a new session like the one that ended, or why there is none (said to the learner). */
export type StartAgainResult = { ok: true; value: CreateSessionBody } | { ok: false; error: string };

/**
 * What the web knows about one session type without React: wording, which SPEC §5 frames it
 * takes, and what "start again" creates. The session store reads only this half, so it stays
 * a plain module (and its tests need no DOM).
 */
export interface SessionTypeRules {
  /** Its name in lists, e.g. the home page's recent sessions. */
  label: string;
  /** The session page's heading until the server's state brings a title. */
  defaultTitle: string;
  /** What ending now means, in the "End this session?" dialog. */
  endNote: string;
  /** A reply in flight can be stopped (SPEC §5 `stop`; other types answer `nothing_to_stop`). */
  canStop: boolean;
  /** The last reply can be produced again (SPEC §5 `retry`). */
  canRetry: boolean;
  /**
   * An answer is scored by the server before the next item comes (an assessment's code runs
   * its tests, seconds), so the page says so while it waits (issue 25).
   */
  scoresAnswers: boolean;
  /** The progress text of the session bar ("2 of 5 recalled"), or null when the type shows none. */
  progressLabel(state: SessionState): string | null;
  /** The pending question may be skipped (a survey's optional question, SPEC §4.5). */
  canSkip(state: SessionState): boolean;
  /** Appended to the status of a recent session on the home page (" · 2 of 5"), or ''. */
  recentDetail(session: SessionHistoryItem): string;
  /** The browser tab's title on the completion screen. */
  resultsTitle(summary: SessionSummary): string;
  /**
   * Where the completion screen's "Back to …" goes: a fixed screen, or one read from the
   * session (the summary does not name a drill's set; the session's detail does).
   */
  backRoute: Route | ((input: StartAgainInput) => Promise<Route>);
  /** The tutor still takes questions after this ending (SPEC §4.4: a completed plan). */
  followUpAfter(summary: SessionSummary): boolean;
  /** What the completion screen's "start again" button creates; null when it has none. */
  startAgain: ((input: StartAgainInput) => Promise<StartAgainResult>) | null;
}

export interface HeaderExtrasProps {
  state: SessionState;
  finished: boolean;
  /** An assessment's deadline passed: the page stops taking answers. */
  onTimeUp(): void;
}

export interface RailProps {
  state: SessionState;
  /** `side`: a column beside the conversation (wide screens); `compact`: a strip above it. */
  layout: 'side' | 'compact';
}

/** A column of the session page beside the conversation (a study plan's steps). */
export interface RailPart {
  /** The class of the element holding the rail and the conversation. */
  layoutClassName: string;
  shown(state: SessionState): boolean;
  Component: ComponentType<RailProps>;
}

export interface CompletionProps {
  summary: SessionSummary;
  /** The "start again" button's request (see `SessionTypeRules.startAgain`). */
  startAgain: { busy: boolean; error: string | null; start(): void };
  /** Goes to `SessionTypeRules.backRoute`. */
  onBack(): void;
}

/** Creates a session and opens it (`useStartSession`); `busy` and `error` belong to the page that shows the buttons. */
export interface StartSessionRequest {
  busy: boolean;
  error: string | null;
  start(body: CreateSessionBody): Promise<void> | void;
}

export interface HomeCardProps {
  stats: ProgressStats;
  sets: readonly RecallSetSummary[];
  recent: readonly SessionHistoryItem[];
  session: StartSessionRequest;
  openSession(sessionId: string): void;
}

export interface SetActionProps {
  /** The set, with the counts the page shows (its points and what is due now, kept current while it is open). */
  recallSet: RecallSetSummary;
  /** The id of the page's note saying why the button is off or what it will do (no points, nothing due), if one shows. */
  describedBy: string | undefined;
  /** The page's one request: the error shows under the page heading. */
  session: StartSessionRequest;
}

/**
 * What the session page shows for one type. The parts (these and `SessionEntryParts`) receive
 * everything they act with as props and never import `services` (it needs a browser window).
 */
export interface SessionTypeParts {
  /** Beside the title in the session bar: a step or item counter, a countdown, a badge. */
  HeaderExtras: ComponentType<HeaderExtrasProps> | null;
  Rail: RailPart | null;
  /** The end of the session: what was done, "Back to …" and "start again". */
  Completion: ComponentType<CompletionProps>;
}

/**
 * What other pages show for one type (`entry-parts.ts`), kept apart from the session page's
 * parts so the home page does not load those (issue 27 item 5).
 */
export interface SessionEntryParts {
  /** A card of the home page's first row. */
  HomeCard: ComponentType<HomeCardProps> | null;
  /** A button of the recall set page's toolbar that starts this type on the set. */
  SetAction: ComponentType<SetActionProps> | null;
}

export type SessionTypeDefinition = SessionTypeRules & SessionTypeParts;
