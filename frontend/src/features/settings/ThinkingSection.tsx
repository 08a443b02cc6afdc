// Settings → "Thinking": whether the transcript shows the models' thinking.
import { useId, useState } from 'react';
import { toApiError } from '../../api/errors';

/** The "Show thinking" switch: saved at once, through the settings. */
export function ThinkingSection({ shown, onToggle }: { shown: boolean; onToggle: (on: boolean) => Promise<void> }) {
  const headId = useId();
  const helpId = useId();
  const [error, setError] = useState('');
  const toggle = async (on: boolean) => {
    setError('');
    try {
      await onToggle(on);
    } catch (err) {
      setError(`The setting could not be saved: ${toApiError(err).message}`);
    }
  };
  return (
    <section className="settings-group thinking-section" aria-labelledby={headId}>
      <h3 id={headId} className="memory-title">
        Thinking
      </h3>
      <label className="switch thinking-switch">
        <input
          type="checkbox"
          role="switch"
          checked={shown}
          aria-describedby={helpId}
          onChange={(e) => void toggle(e.target.checked)}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Show thinking</span>
      </label>
      <p id={helpId} className="settings-help">
        Models that think before they answer show it in a folded block above the reply (“Thought for 12 s”), streamed
        while they think. Off hides the blocks; the thinking is still kept with the reply. How hard a model thinks is its
        Reasoning effort, beside the model above.
      </p>
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
