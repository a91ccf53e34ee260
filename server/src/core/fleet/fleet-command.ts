/**
 * What an instance asks of the instance that runs a session (SPEC §11): a listener attaches
 * or leaves, a socket's frame, an HTTP step, a close. Stored as JSON in `session_commands`
 * when the owner is another instance, so it is parsed back with a schema there.
 */
import { parseClientMessage, type ClientMessage } from '@tutorloop/shared';
import { z } from 'zod';

export type FleetCommand =
  | { kind: 'attach'; target: string }
  | { kind: 'detach'; target: string }
  | { kind: 'frame'; target: string; frame: ClientMessage }
  | { kind: 'step'; target: string; frame: ClientMessage }
  | { kind: 'close'; target: string };

const StoredCommand = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['attach', 'detach', 'close']) }),
  z.object({ kind: z.enum(['frame', 'step']), frame: z.unknown() }),
]);

/** The JSON stored for `command` (its target has a column of its own). */
export function storedCommand(command: FleetCommand): unknown {
  return 'frame' in command ? { kind: command.kind, frame: command.frame } : { kind: command.kind };
}

/** A stored command read back, or an error naming what is wrong with it. */
export function parseStoredCommand(target: string, stored: unknown): { ok: true; value: FleetCommand } | { ok: false; error: string } {
  const parsed = StoredCommand.safeParse(stored);
  if (!parsed.success) return { ok: false, error: `not a command: ${parsed.error.message}` };
  const value = parsed.data;
  if (value.kind === 'frame' || value.kind === 'step') {
    const frame = parseClientMessage(JSON.stringify(value.frame));
    if (!frame.ok) return { ok: false, error: `the command's frame is not a client message: ${frame.error.message}` };
    return { ok: true, value: { kind: value.kind, target, frame: frame.value } };
  }
  return { ok: true, value: { kind: value.kind, target } };
}

/**
 * Whether `command` may run again after an owner that took it lost the session before it was
 * known to have run (SPEC §11; README.md here, "Commands"). Running twice is harmless for every
 * command but a chat without a clientMessageId: a chat with one is stored once (the inbox
 * de-duplicates it) and answered once (the durable loop); a widget answer resolves its pending
 * widget once; attach, detach and close only repeat. A chat without an id may have been stored
 * already, and nothing tells it from a new one, so it is not run again (at most once).
 */
export function safeToRunAgain(command: FleetCommand): boolean {
  if (command.kind !== 'frame' && command.kind !== 'step') return true;
  return command.frame.type !== 'chat' || command.frame.payload.clientMessageId !== undefined;
}
