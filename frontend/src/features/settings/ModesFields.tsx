import { useId } from 'react';
import type { ConversationMode } from '../../api';
import { NumberField } from './NumberField';
import { setterOf, type FieldGroupProps } from './useSettingsForm';

/** A new conversation's mode, whether Auto asks the model, and the reflection rounds. */
export function ModesFields({ form, edit, bad, errorId }: FieldGroupProps) {
  const id = useId();
  return (
    <fieldset className="settings-group">
      <legend>Modes and reflection</legend>
      <div className="settings-field">
        <label htmlFor={`${id}-mode`}>Default mode</label>
        <select
          id={`${id}-mode`}
          className="errand-input"
          value={form.defaultMode}
          aria-describedby={`${id}-mode-help`}
          onChange={(e) => edit((f) => ({ ...f, defaultMode: e.target.value as ConversationMode }))}
        >
          <option value="auto">Auto</option>
          <option value="agent">Agent</option>
          <option value="chat">Chat</option>
        </select>
        <p id={`${id}-mode-help`} className="settings-help">
          A new conversation&apos;s mode. Auto decides for each message between a direct answer and a task; /task or
          /chat at the start of a message forces one.
        </p>
      </div>
      <ul className="settings-toggles">
        <li className="settings-toggle">
          <input
            id={`${id}-auto-ask`}
            type="checkbox"
            checked={form.autoAskModel}
            aria-describedby={`${id}-auto-ask-help`}
            onChange={(e) => edit((f) => ({ ...f, autoAskModel: e.target.checked }))}
          />
          <div>
            <label htmlFor={`${id}-auto-ask`}>Ask the model when Auto is unsure</label>
            <p id={`${id}-auto-ask-help`} className="settings-help">
              One short extra call to the model, only when the quick local decision is a close one.
            </p>
          </div>
        </li>
      </ul>
      <NumberField
        id={`${id}-reflection`}
        label="Reflection rounds"
        help="Before a task with a plan completes, Errand checks the result against the plan, at most this many times. 0 turns reflection off."
        value={form.reflectionRounds}
        onChange={setterOf(edit, 'reflectionRounds')}
        invalid={bad('reflectionRounds')}
        errorId={errorId}
        step="1"
        min="0"
      />
    </fieldset>
  );
}
