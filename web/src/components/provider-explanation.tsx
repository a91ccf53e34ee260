import { providerLabels, type ProviderName } from '@tutorloop/shared';
import { useEffect, useId, useRef, useState } from 'react';

/** The provider (shared/src/providers.ts) that is the local deterministic tutor. */
export const offlineProvider = 'offline' satisfies ProviderName;

/**
 * Who is tutoring, said so a learner knows what to expect (issue 18): the offline tutor's
 * reach and limits and how to connect a model (README "Configuration"), or which model
 * provider answers.
 */
export function ProviderExplanation({ tutor, headingLevel = 2 }: { tutor: ProviderName; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (tutor !== offlineProvider) {
    return (
      <div className="provider-explanation" data-testid="provider-explanation" data-provider={tutor}>
        <Heading className="provider-explanation-title">{providerLabels[tutor]} tutor</Heading>
        <p>
          Replies come from a {providerLabels[tutor]} model: it writes its own cues and hints, explains, and answers your
          questions along the way. A separate evaluator decides which points you recalled.
        </p>
      </div>
    );
  }
  return (
    <div className="provider-explanation" data-testid="provider-explanation" data-provider={tutor}>
      <Heading className="provider-explanation-title">Offline tutor</Heading>
      <p>No language model is connected, so a local tutor that follows fixed rules runs your sessions.</p>
      <div className="provider-columns">
        <div>
          <p className="provider-subtitle">It can</p>
          <ul>
            <li>cue each point, then give stronger hints;</li>
            <li>check your answers by their words and close synonyms;</li>
            <li>hand you multiple-choice, written and code questions, and run your code;</li>
            <li>run study plans and score assessments.</li>
          </ul>
        </div>
        <div>
          <p className="provider-subtitle">It cannot</p>
          <ul>
            <li>follow an answer worded very differently from the point;</li>
            <li>explain an idea in depth or answer open questions;</li>
            <li>chat freely about a topic.</li>
          </ul>
        </div>
      </div>
      <p className="small">
        To connect a model, whoever runs the server restarts it with <code>LLM_PROVIDER=anthropic</code> and{' '}
        <code>ANTHROPIC_API_KEY</code>, or with <code>LLM_PROVIDER=openai</code>, <code>OPENAI_API_KEY</code> and{' '}
        <code>OPENAI_BASE_URL</code> (OpenAI, Ollama, vLLM…). The README’s “Configuration” section lists every setting.
      </p>
    </div>
  );
}

const offlineTitle = 'No API key is set: a local deterministic tutor is answering';

/**
 * The header's badge: which tutor answers, and a button that opens the explanation above
 * (Escape or a click elsewhere closes it and the focus returns to the badge).
 */
export function ProviderBadge({ tutor }: { tutor: ProviderName }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const offline = tutor === offlineProvider;

  useEffect(() => {
    if (!open) return undefined;
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    function handlePointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('keydown', handleKeyDown);
    document.addEventListener('pointerdown', handlePointerDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      document.removeEventListener('pointerdown', handlePointerDown);
    };
  }, [open]);

  return (
    <div className="provider-badge" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={offline ? 'badge badge-offline' : 'badge'}
        title={offline ? offlineTitle : `Replies come from the ${providerLabels[tutor]} model provider`}
        aria-expanded={open}
        aria-controls={panelId}
        data-testid={offline ? 'offline-badge' : 'provider-badge'}
        onClick={() => setOpen((value) => !value)}
      >
        {offline ? 'Offline tutor' : `${providerLabels[tutor]} tutor`}
      </button>
      <div id={panelId} className="provider-popover card" hidden={!open}>
        <ProviderExplanation tutor={tutor} />
      </div>
    </div>
  );
}
