/**
 * A session of a type this version of the app does not know (a newer server may offer more):
 * said plainly, instead of showing it as another type's session.
 */
export function UnsupportedSession({ type, onBack }: { type: string; onBack(): void }) {
  return (
    <div className="page narrow">
      <h1 tabIndex={-1}>Session not supported</h1>
      <p className="notice" role="alert" data-testid="unsupported-session">
        This kind of session (“{type}”) is not supported by this version of the app. Reload the page to get the latest version, or open it from
        another device.
      </p>
      <div className="actions">
        <button type="button" className="button primary" onClick={onBack}>
          Back to home
        </button>
      </div>
    </div>
  );
}
