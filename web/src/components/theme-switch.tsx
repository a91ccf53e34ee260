import { useId } from 'react';
import { useTheme } from '../hooks/use-theme';
import { themeChoices, themeLabels } from '../store/theme-store';
import { themeStore } from '../theme';

/** Settings › Appearance: System, Light or Dark, applied at once and remembered on this device. */
export function ThemeSwitch() {
  const choice = useTheme((state) => state.choice);
  const hintId = useId();
  return (
    <section className="card theme-card" aria-labelledby={`${hintId}-heading`} data-testid="theme-switch">
      <h2 id={`${hintId}-heading`}>Appearance</h2>
      <fieldset className="theme-choices" aria-describedby={hintId}>
        <legend className="visually-hidden">Colour scheme</legend>
        {themeChoices.map((option) => (
          <label key={option} className="theme-choice">
            <input
              type="radio"
              name="theme"
              value={option}
              checked={choice === option}
              onChange={() => themeStore.getState().choose(option)}
            />
            {themeLabels[option]}
          </label>
        ))}
      </fieldset>
      <p id={hintId} className="field-hint">
        System follows your device’s light or dark setting. The choice is kept on this device.
      </p>
    </section>
  );
}
