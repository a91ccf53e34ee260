import type { CompletionProps } from './session-type';

/** The end of a completion screen: the start-again error, "back to …" and "start again". */
export function CompletionActions({ startAgain, onBack, backLabel, againLabel }: Pick<CompletionProps, 'startAgain' | 'onBack'> & { backLabel: string; againLabel: string }) {
  return (
    <>
      {startAgain.error ? (
        <p className="form-error" role="alert">
          {startAgain.error}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="button" onClick={onBack}>
          {backLabel}
        </button>
        <button type="button" className="button primary" onClick={startAgain.start} disabled={startAgain.busy}>
          {againLabel}
        </button>
      </div>
    </>
  );
}
