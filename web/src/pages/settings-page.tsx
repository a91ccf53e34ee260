import { useEffect, useId, useState, type FormEvent } from 'react';
import { RetentionForecast } from '../components/retention-forecast';
import { SchedulerPanel } from '../components/scheduler-panel';
import { ThemeSwitch } from '../components/theme-switch';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useScheduler } from '../hooks/use-scheduler';
import { useSettings } from '../hooks/use-settings';
import { settingsStore } from '../services';
import { describeRetention, retentionRange } from '../store/settings-store';

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/**
 * The learner's settings: desired retention for spaced repetition, with the workload it costs
 * beside the slider, the colour scheme (issue 25), and the scheduler's parameters and optimiser (issue 17).
 */
export function SettingsPage() {
  const saved = useAuth((state) => state.learner?.desiredRetention ?? null);
  const learnerId = useAuth((state) => state.learner?.id ?? null);
  const scheduler = useScheduler(learnerId, (state) => state);
  // The learner's own forgetting-curve decay (FSRS-6 w20) once their parameters are known.
  const decay = scheduler.scheduler?.parameters.weights[20];
  const status = useSettings((state) => state.status);
  const error = useSettings((state) => state.error);
  const [retention, setRetention] = useState<number>(saved ?? retentionRange.default);
  const [touched, setTouched] = useState(false);
  const inputId = useId();
  const explanationId = useId();
  const effectId = useId();
  useDocumentTitle('Settings');

  // The learner may arrive before `GET /api/me` answered: take the saved value until edited.
  useEffect(() => {
    if (!touched && saved !== null) setRetention(saved);
  }, [saved, touched]);

  useEffect(() => () => settingsStore.getState().clearStatus(), []);

  function handleChange(value: number) {
    setTouched(true);
    setRetention(value);
    settingsStore.getState().clearStatus();
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    void settingsStore.getState().save(retention);
  }

  return (
    <div className="page settings-page">
      <div className="page-heading">
        <h1 tabIndex={-1}>Settings</h1>
      </div>
      <form className="card" onSubmit={handleSubmit} data-testid="settings-form">
        <h2>Spaced repetition</h2>
        <div className="retention-layout">
          <div className="field">
            <div className="slider-label-row">
              <label htmlFor={inputId}>Desired retention</label>
              <output htmlFor={inputId} className="slider-value" data-testid="retention-value">
                {percent(retention)}
              </output>
            </div>
            <input
              id={inputId}
              type="range"
              className="slider"
              min={retentionRange.min}
              max={retentionRange.max}
              step={retentionRange.step}
              value={retention}
              aria-valuetext={percent(retention)}
              aria-describedby={`${explanationId} ${effectId}`}
              onChange={(event) => handleChange(Number(event.target.value))}
            />
            <div className="slider-scale" aria-hidden="true">
              <span>{percent(retentionRange.min)}</span>
              <span>{percent(retentionRange.max)}</span>
            </div>
            <p id={explanationId} className="field-hint">
              The share of points you want to still remember when they come up for review. Higher retention means more
              frequent reviews; lower means fewer reviews and more forgetting. 90% is a good balance.
            </p>
            <p id={effectId} className="retention-effect" data-testid="retention-effect">
              {describeRetention(retention, decay)}
            </p>
          </div>
          <RetentionForecast forecast={scheduler.forecast} retention={retention} />
        </div>
        {error ? (
          <p className="form-error" role="alert" data-testid="settings-error">
            {error}
          </p>
        ) : null}
        <div className="form-actions">
          <span role="status" className="save-status" data-testid="settings-status">
            {status === 'saving' ? 'Saving…' : status === 'saved' ? 'Saved. New reviews use this retention.' : ''}
          </span>
          <button
            type="submit"
            className="button primary"
            disabled={status === 'saving'}
            aria-busy={status === 'saving'}
          >
            Save
          </button>
        </div>
      </form>
      <ThemeSwitch />
      <SchedulerPanel state={scheduler} />
    </div>
  );
}
