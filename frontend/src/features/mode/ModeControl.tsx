import { memo, useId } from 'react';
import type { ConversationMode } from '../../api/types';
import './mode.css';

const OPTIONS: { value: ConversationMode; label: string; hint: string }[] = [
  { value: 'auto', label: 'Auto', hint: 'Errand decides for each message: a direct answer, or a task it works on by itself.' },
  { value: 'agent', label: 'Agent', hint: 'Every message is a task Errand works on by itself, over many steps.' },
  { value: 'chat', label: 'Chat', hint: 'Every message gets one direct reply.' },
];

/**
 * The conversation's mode: a radio group named "Mode" (Auto, Agent, Chat),
 * drawn as a segmented control. Arrow keys move between the options, as in
 * any radio group. It renders again only when its props change.
 */
export const ModeControl = memo(function ModeControl({
  value,
  disabled,
  onChange,
}: {
  value: ConversationMode;
  disabled?: boolean;
  onChange: (mode: ConversationMode) => void;
}) {
  const name = useId();
  return (
    <div className="mode-control" role="radiogroup" aria-label="Mode">
      {OPTIONS.map((o) => (
        <label key={o.value} className={`mode-option${o.value === value ? ' is-on' : ''}`} title={o.hint}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={o.value === value}
            disabled={disabled}
            onChange={() => onChange(o.value)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
});
