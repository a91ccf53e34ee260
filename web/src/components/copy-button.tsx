import { useEffect, useState } from 'react';

/**
 * Copies text to the clipboard: the Clipboard API where the page may use it (a secure
 * context), else a hidden textarea and `execCommand('copy')` (plain-HTTP servers on a LAN).
 * Resolves false when neither worked.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or unavailable: try the fallback.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  const focused = document.activeElement as HTMLElement | null;
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  focused?.focus();
  return copied;
}

/** A small "Copy" button for one message; says "Copied" (announced politely) for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [outcome, setOutcome] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (outcome === 'idle') return;
    const timer = setTimeout(() => setOutcome('idle'), 2000);
    return () => clearTimeout(timer);
  }, [outcome]);
  return (
    <button
      type="button"
      className="message-action"
      aria-label={label}
      data-testid="copy-message"
      onClick={() => void copyText(text).then((copied) => setOutcome(copied ? 'copied' : 'failed'))}
    >
      <span aria-live="polite">{outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
