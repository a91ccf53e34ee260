import { Limits } from '@tutorloop/shared';
import { useId, useRef, type FormEvent, type KeyboardEvent } from 'react';
import { useDraft } from '../hooks/use-draft';

export interface ComposerProps {
  /** Why sending is not possible right now, or null when it is. Typing is always allowed. */
  blockedReason: string | null;
  /** A note under the field (e.g. "Will be sent when the connection is back"). */
  note?: string | null;
  onSend(message: string): void;
}

/** The chat input: Enter sends, Shift+Enter makes a new line. */
export function Composer({ blockedReason, note, onSend }: ComposerProps) {
  // Kept per session in localStorage until sent (issue 18: nothing typed is lost).
  const [text, setText] = useDraft('composer', '');
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const canSend = blockedReason === null && text.trim().length > 0;

  function send(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    onSend(text.trim());
    setText('');
    inputRef.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // An IME composition uses Enter to confirm a word; that must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  return (
    <form className="composer" onSubmit={send} aria-label="Send a message">
      <label htmlFor={inputId} className="visually-hidden">
        Message
      </label>
      <textarea
        id={inputId}
        ref={inputRef}
        className="input composer-input"
        rows={2}
        value={text}
        maxLength={Limits.chatMessageMaxLength}
        placeholder="Write your answer…"
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
        autoFocus
      />
      <button type="submit" className="button primary composer-send" disabled={!canSend}>
        Send
      </button>
      <p id={hintId} className="composer-hint">
        {/* The keyboard hint only where a hardware keyboard is likely (issue 25): hidden on touch screens and phone widths by CSS. */}
        {blockedReason ?? note ?? <span className="keyboard-hint">Enter to send · Shift+Enter for a new line</span>}
      </p>
    </form>
  );
}
