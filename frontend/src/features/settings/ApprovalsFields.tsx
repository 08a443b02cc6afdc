import { useId } from 'react';
import type { Risk } from '../../api';
import type { FieldGroupProps } from './useSettingsForm';

const RISK_TOGGLES: { risk: Risk; label: string; help: string }[] = [
  {
    risk: 'read_only',
    label: 'Read-only tools',
    help:
      'List, read and search files in the workspace; fetch web pages. They change nothing. ' +
      '(Fetching an address on this computer or your local network is asked every time.)',
  },
  {
    risk: 'writes',
    label: 'Tools that write files',
    help: "Create and edit files in the conversation's workspace folder.",
  },
  {
    risk: 'destructive',
    label: 'Destructive tools (run commands)',
    help: 'Run any shell command with your permissions, anywhere on this computer.',
  },
];

/** Which tool risks run without asking; a warning when destructive ones would. */
export function ApprovalsFields({ form, edit }: Pick<FieldGroupProps, 'form' | 'edit'>) {
  const id = useId();
  return (
    <fieldset className="settings-group">
      <legend>Run without asking</legend>
      <p className="settings-help">Tools of the kinds you tick run at once; the others wait for your approval.</p>
      <ul className="settings-toggles">
        {RISK_TOGGLES.map(({ risk, label, help }) => (
          <li key={risk} className={`settings-toggle risk-row-${risk}`}>
            <input
              id={`${id}-auto-${risk}`}
              type="checkbox"
              checked={form.autoApprove[risk]}
              aria-describedby={`${id}-auto-${risk}-help`}
              onChange={(e) => edit((f) => ({ ...f, autoApprove: { ...f.autoApprove, [risk]: e.target.checked } }))}
            />
            <div>
              <label htmlFor={`${id}-auto-${risk}`}>{label}</label>
              <p id={`${id}-auto-${risk}-help`} className="settings-help">
                {help}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {form.autoApprove.destructive && (
        <p className="settings-warning" role="note">
          <strong>Careful:</strong> the agent will run any command it decides on — deleting files, installing
          software, sending data — without asking you first. Turn this on only for work you would let it do unwatched.
        </p>
      )}
    </fieldset>
  );
}
