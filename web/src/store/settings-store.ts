import { UpdateLearnerBody } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import type { AuthStore } from './auth-store';

/** Bounds and default of the desired retention (shared `UpdateLearnerBody`). */
export const retentionRange = { min: 0.7, max: 0.99, step: 0.01, default: 0.9 } as const;

/** The FSRS-6 default decay (w20) ts-fsrs schedules with, until the learner's parameters are optimised. */
export const defaultFsrsDecay = 0.1542;

function intervalAt(retention: number, decay: number): number {
  return retention ** (-1 / decay) - 1;
}

/**
 * How much longer (> 1) or shorter (< 1) review intervals are at `retention` than at 90%, for
 * the same memory: FSRS's interval is proportional to R^(-1/decay) − 1. `decay` is the
 * learner's own (w20 of their parameters) once optimised.
 */
export function intervalFactor(retention: number, decay = defaultFsrsDecay): number {
  return intervalAt(retention, decay) / intervalAt(retentionRange.default, decay);
}

/** A plain-words note on what a retention means for the review load. */
export function describeRetention(retention: number, decay = defaultFsrsDecay): string {
  const percent = Math.round(retention * 100);
  const factor = intervalFactor(retention, decay);
  if (Math.abs(factor - 1) < 0.05) return `At ${percent}%, reviews come at the recommended pace.`;
  if (factor < 1) {
    return `At ${percent}%, reviews come about ${formatFactor(1 / factor)}× as often as at 90%.`;
  }
  return `At ${percent}%, reviews come about ${formatFactor(factor)}× less often than at 90%, and you forget more.`;
}

function formatFactor(value: number): string {
  return value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
}

export interface SettingsState {
  status: 'idle' | 'saving' | 'saved' | 'error';
  error: string | null;
  /** Saves the desired retention; on success the signed-in learner is updated too. */
  save(desiredRetention: number): Promise<void>;
  /** Back to idle (the form was edited after a save). */
  clearStatus(): void;
}

/** The learner's settings form (`PATCH /api/me`). */
export function createSettingsStore(http: Pick<HttpClient, 'updateMe'>, authStore: Pick<AuthStore, 'getState'>) {
  return createStore<SettingsState>()((set, get) => ({
    status: 'idle',
    error: null,
    save: async (desiredRetention) => {
      if (get().status === 'saving') return;
      // Same rule as the server, without the round trip.
      // Two decimals, as the slider steps: 0.7000000001 from float arithmetic is still 70%.
      const checked = UpdateLearnerBody.safeParse({ desiredRetention: Math.round(desiredRetention * 100) / 100 });
      if (!checked.success) {
        set({ status: 'error', error: 'Desired retention must be between 70% and 99%.' });
        return;
      }
      set({ status: 'saving', error: null });
      const result = await http.updateMe(checked.data);
      if (!result.ok) {
        set({ status: 'error', error: result.error.message });
        return;
      }
      authStore.getState().setLearner(result.value);
      set({ status: 'saved', error: null });
    },
    clearStatus: () => {
      if (get().status !== 'saving') set({ status: 'idle', error: null });
    },
  }));
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
