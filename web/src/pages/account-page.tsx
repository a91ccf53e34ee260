import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { AccountImportLimits, type AccountImportResult } from '@tutorloop/shared';
import { saveFile } from '../components/save-file';
import { useAuth } from '../hooks/use-auth';
import { labelledServerMessage } from '../store/form-errors';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { authStore, http, signOut } from '../services';

type Outcome = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }) {
  if (outcome.kind === 'done') {
    return (
      <p className="form-success" role="status" data-testid={testId}>
        {outcome.message}
      </p>
    );
  }
  if (outcome.kind === 'error') {
    return (
      <p className="form-error" role="alert" data-testid={testId}>
        {outcome.message}
      </p>
    );
  }
  return null;
}

/**
 * The learner's account (issue 18): a new password (the current one required; other devices
 * are signed out), sign out everywhere, export all my data as JSON and restore such a file
 * (issue 25), delete the account with all its data after typing the username.
 */
export function AccountPage() {
  const username = useAuth((state) => state.learner?.username ?? '');
  useDocumentTitle('Account');
  return (
    <div className="page narrow account-page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Account</h1>
      </div>
      <p className="muted">
        Signed in as <strong data-testid="account-username">{username}</strong>.
      </p>
      <ChangePassword />
      <SignOutEverywhere />
      <ExportData />
      <RestoreData />
      <DeleteAccount username={username} />
    </div>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const currentId = useId();
  const nextId = useId();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (outcome.kind === 'busy') return;
    setOutcome({ kind: 'busy' });
    const result = await http.changePassword({ currentPassword: current, newPassword: next });
    if (!result.ok) return setOutcome({ kind: 'error', message: labelledServerMessage(result.error, { currentPassword: 'Current password', newPassword: 'New password' }) });
    // The old token is refused from now on: keep this device signed in with the new one.
    authStore.getState().signIn(result.value);
    setCurrent('');
    setNext('');
    setOutcome({ kind: 'done', message: 'Password changed. Your other devices are signed out.' });
  }

  return (
    <section className="card account-section" aria-labelledby={`${currentId}-heading`}>
      <h2 id={`${currentId}-heading`}>Change password</h2>
      <form onSubmit={(event) => void handleSubmit(event)} data-testid="change-password-form">
        <div className="field">
          <label htmlFor={currentId}>Current password</label>
          <input id={currentId} className="input" type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} required />
        </div>
        <div className="field">
          <label htmlFor={nextId}>New password</label>
          <input id={nextId} className="input" type="password" autoComplete="new-password" minLength={8} value={next} onChange={(event) => setNext(event.target.value)} required />
          <p className="muted">At least 8 characters.</p>
        </div>
        <button type="submit" className="button primary" disabled={outcome.kind === 'busy'}>
          Change password
        </button>
        <OutcomeLine outcome={outcome} testId="change-password-outcome" />
      </form>
    </section>
  );
}

function SignOutEverywhere() {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const headingId = useId();

  async function handleClick() {
    setOutcome({ kind: 'busy' });
    const result = await http.signOutEverywhere();
    if (!result.ok) return setOutcome({ kind: 'error', message: result.error.message });
    // This device's token is refused too.
    signOut();
  }

  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Sign out everywhere</h2>
      <p>Signs out every browser and device where you are signed in, this one included.</p>
      <button type="button" className="button" onClick={() => void handleClick()} disabled={outcome.kind === 'busy'} data-testid="sign-out-everywhere">
        Sign out everywhere
      </button>
      <OutcomeLine outcome={outcome} testId="sign-out-everywhere-outcome" />
    </section>
  );
}

function ExportData() {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const headingId = useId();

  async function handleClick() {
    setOutcome({ kind: 'busy' });
    const result = await http.exportMyData();
    if (!result.ok) return setOutcome({ kind: 'error', message: result.error.message });
    saveFile(result.value);
    setOutcome({ kind: 'done', message: `Saved ${result.value.filename}.` });
  }

  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Export my data</h2>
      <p>One JSON file with your recall sets, cards and review log, sessions with their conversations and answers, study plans, surveys and settings.</p>
      <button type="button" className="button" onClick={() => void handleClick()} disabled={outcome.kind === 'busy'} data-testid="export-my-data">
        Export my data
      </button>
      <OutcomeLine outcome={outcome} testId="export-outcome" />
    </section>
  );
}

const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;

/** "Restored 3 sets, 120 cards, 14 sessions" (and plans or surveys when there were any). */
function restoredMessage(result: AccountImportResult): string {
  const parts = [count(result.recallSets, 'set', 'sets'), count(result.cards, 'card', 'cards'), count(result.sessions, 'session', 'sessions')];
  if (result.studyPlans > 0) parts.push(count(result.studyPlans, 'study plan', 'study plans'));
  if (result.surveys > 0) parts.push(count(result.surveys, 'survey', 'surveys'));
  return `Restored ${parts.join(', ')}.`;
}

function RestoreData() {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const headingId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file || outcome.kind === 'busy') return;
    setOutcome({ kind: 'busy' });
    // The same file may be chosen again after a refusal.
    if (input.current) input.current.value = '';
    if (file.size > AccountImportLimits.maxBytes) {
      return setOutcome({ kind: 'error', message: `${file.name} is larger than ${AccountImportLimits.maxBytes / 1024 / 1024} MB, more than an export can be.` });
    }
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      return setOutcome({ kind: 'error', message: `${file.name} is not a JSON file: choose the file "Export my data" saved.` });
    }
    const result = await http.restoreMyData(data);
    if (!result.ok) return setOutcome({ kind: 'error', message: result.error.message });
    setOutcome({ kind: 'done', message: restoredMessage(result.value) });
  }

  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>Restore from an export</h2>
      <p>Adds everything in a file that “Export my data” saved — here or on another server — to this account, beside what is already here. A damaged file or one from an older version is refused and nothing is added.</p>
      <div className="field">
        <label htmlFor={inputId}>Export file (.json)</label>
        <input
          ref={input}
          id={inputId}
          className="input"
          type="file"
          accept=".json,application/json"
          disabled={outcome.kind === 'busy'}
          onChange={(event) => void handleFile(event)}
          data-testid="restore-file"
        />
      </div>
      {outcome.kind === 'busy' ? (
        <p className="muted" role="status">
          Restoring…
        </p>
      ) : null}
      <OutcomeLine outcome={outcome} testId="restore-outcome" />
    </section>
  );
}

function DeleteAccount({ username }: { username: string }) {
  const [typed, setTyped] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const headingId = useId();
  const inputId = useId();
  const helpId = useId();
  const matches = username !== '' && typed.trim().toLowerCase() === username.toLowerCase();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!matches || outcome.kind === 'busy') return;
    setOutcome({ kind: 'busy' });
    const result = await http.deleteAccount({ confirmUsername: typed.trim() });
    if (!result.ok) return setOutcome({ kind: 'error', message: result.error.message });
    authStore.getState().signOut();
    navigate({ name: 'login' });
  }

  return (
    <section className="card account-section danger-zone" aria-labelledby={headingId}>
      <h2 id={headingId}>Delete my account</h2>
      <p id={helpId}>
        Deletes your account and everything in it — recall sets, cards, review history, sessions and study plans. This cannot be undone; export your data first if you want to keep it. Type your username, <strong>{username}</strong>, to confirm.
      </p>
      <form onSubmit={(event) => void handleSubmit(event)} data-testid="delete-account-form">
        <div className="field">
          <label htmlFor={inputId}>Username</label>
          <input id={inputId} className="input" value={typed} autoComplete="off" aria-describedby={helpId} onChange={(event) => setTyped(event.target.value)} />
        </div>
        <button type="submit" className="button danger" disabled={!matches || outcome.kind === 'busy'}>
          Delete my account
        </button>
        <OutcomeLine outcome={outcome} testId="delete-account-outcome" />
      </form>
    </section>
  );
}
