import type { ReactNode } from 'react';

/** A number with its label, unit and help; invalid marks it and points it at the error (errorId). */
export function NumberField({
  id,
  label,
  help,
  value,
  onChange,
  invalid,
  errorId,
  step,
  min,
  unit,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
  errorId: string;
  step: string;
  min: string;
  unit?: string;
}) {
  const helpId = `${id}-help`;
  return (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      <div className="settings-input-row">
        <input
          id={id}
          className="errand-input settings-number"
          type="number"
          inputMode="decimal"
          step={step}
          min={min}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={[help ? helpId : '', invalid ? errorId : ''].filter(Boolean).join(' ') || undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {unit && <span className="settings-unit">{unit}</span>}
      </div>
      {help && (
        <p id={helpId} className="settings-help">
          {help}
        </p>
      )}
    </div>
  );
}
