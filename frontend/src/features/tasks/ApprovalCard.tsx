import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { RISK_LOCAL_NETWORK, RISK_NETWORK, SANDBOX_OFF, SANDBOX_ON, type Approval, type Task } from '../../api/types';
import { stopTask } from '../../stores/actions';
import { approveTool, denyTool } from '../../stores/taskActions';
import { DiffView } from '../../components/DiffView';
import { parseObject, prettyJson } from '../../lib/json';
import { usePending } from '../../lib/usePending';
import { riskInfo } from './format';
import { useArmed } from './useArmed';

function CommandView({ approval }: { approval: Approval }) {
  const args = parseObject(approval.arguments);
  const command = typeof args?.command === 'string' ? args.command : null;
  if (command === null) return null;
  const timeout = typeof args?.timeout_seconds === 'number' ? args.timeout_seconds : null;
  return (
    <div className="approval-command">
      <span className="approval-label">Command</span>
      <pre className="approval-command-text" aria-label="Command">
        <span className="approval-prompt" aria-hidden="true">
          ${' '}
        </span>
        {command}
      </pre>
      {timeout !== null && <span className="muted approval-small">Times out after {timeout} s</span>}
    </div>
  );
}

/** The URL of a local network approval: its arguments, as a URL or as JSON with a url. */
function localUrl(raw: string | undefined): string {
  const args = parseObject(raw);
  if (typeof args?.url === 'string') return args.url;
  return (raw ?? '').trim();
}

/** The address a URL reaches, when the approval does not name it. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Where a local network approval would go: the address first, then the whole URL. */
function LocalAddressView({ approval }: { approval: Approval }) {
  const url = localUrl(approval.arguments);
  const address = approval.address?.trim() || hostOf(url);
  return (
    <dl className="approval-local">
      <dt className="approval-label">Address</dt>
      <dd className="approval-address">
        <code>{address || '(unknown)'}</code>
      </dd>
      <dt className="approval-label">URL</dt>
      <dd className="approval-url">
        <code>{url || '(none)'}</code>
      </dd>
    </dl>
  );
}

/** Whether the command would run in the sandbox, when the tool can tell. */
function SandboxNote({ sandbox }: { sandbox: string | undefined }) {
  if (sandbox === SANDBOX_ON) {
    return (
      <p className="approval-sandbox muted approval-small" role="note" aria-label="Sandboxed">
        Sandboxed: it can write only in the workspace and a private temporary folder, and has no network unless you
        allow it.
      </p>
    );
  }
  if (sandbox === SANDBOX_OFF) {
    return (
      <p className="approval-sandbox approval-small" role="note" aria-label="Not sandboxed">
        Not sandboxed: it runs with your permissions, on your whole disk and the network.
      </p>
    );
  }
  return null;
}

/**
 * The tool call waiting for approval, inline above the composer: what would
 * run, how risky it is, what it would change, and the decision. For half a
 * second after it appears it ignores clicks and keys, so that a person who
 * was typing cannot approve by accident.
 */
export function ApprovalCard({ task, approval }: { task: Task; approval: Approval }) {
  const armed = useArmed(`${task.id}:${approval.callId}`);
  const { pending, run } = usePending();
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const regionRef = useRef<HTMLElement>(null);
  const reasonRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const riskId = useId();
  const risk = riskInfo(approval.risk);
  // Reaching this computer or the local network is asked every time: it is
  // never approved for the rest of the task.
  const local = approval.risk === RISK_LOCAL_NETWORK;
  // Leave for a sandboxed command to reach the network lasts for the task.
  const network = approval.risk === RISK_NETWORK;
  const live = armed && !pending;

  // Take the focus the disabled composer lost, so the keyboard is here.
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) regionRef.current?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  /** A click handler that does nothing until the card is armed. */
  const guarded = (fn: () => void) => (e: MouseEvent) => {
    if (!live) {
      e.preventDefault();
      return;
    }
    fn();
  };

  const onDeny = (e: FormEvent) => {
    e.preventDefault();
    if (!live) return;
    void run(() => denyTool(task.id, approval.callId, reason));
  };

  const stopButton = (
    <>
      <span className="agent-card-spacer" />
      <button type="button" className="btn btn-stop" disabled={pending} onClick={() => void run(() => stopTask(task.id))}>
        <span className="stop-square" aria-hidden="true" />
        Stop
      </button>
    </>
  );

  const args = prettyJson(approval.arguments);
  const preview = approval.preview ?? '';

  return (
    <section
      ref={regionRef}
      className={`agent-card approval-card tone-${risk.tone}${armed ? '' : ' is-arming'}`}
      role="region"
      aria-label="Approval needed"
      aria-describedby={riskId}
      tabIndex={-1}
    >
      <header className="agent-card-head">
        <h2 id={headingId} className="agent-card-title">
          {local ? 'Reach a local network address?' : network ? 'Allow the network?' : 'Approval needed'}
        </h2>
        <span className={`risk-badge risk-${risk.tone}`}>{risk.label}</span>
      </header>
      {local ? (
        <>
          <p className="approval-lead">
            <code className="approval-tool">{approval.tool}</code> wants to reach an address on this computer or your
            local network.
          </p>
          <LocalAddressView approval={approval} />
          {preview.trim() !== '' && <p className="approval-preview">{preview}</p>}
          <p id={riskId} className={`approval-risk risk-text-${risk.tone}`}>
            {risk.description}
          </p>
        </>
      ) : network ? (
        <>
          <p className="approval-lead">
            A <code className="approval-tool">{approval.tool}</code> command asks for the network.
          </p>
          {preview.trim() !== '' && <p className="approval-preview">{preview}</p>}
          <p id={riskId} className={`approval-risk risk-text-${risk.tone}`}>
            {risk.description}
          </p>
        </>
      ) : (
        <>
          <p className="approval-lead">
            The agent wants to run <code className="approval-tool">{approval.tool}</code>.
          </p>
          <p id={riskId} className={`approval-risk risk-text-${risk.tone}`}>
            {risk.description}
          </p>

          <SandboxNote sandbox={approval.sandbox} />
          <CommandView approval={approval} />

          {preview.trim() !== '' && <DiffView diff={preview} label="What it would change" />}

          <div className="approval-args">
            <span className="approval-label">Arguments</span>
            <pre className="approval-args-body" tabIndex={0} aria-label="Arguments">
              {args === '' ? '(none)' : args}
            </pre>
          </div>
        </>
      )}

      {denying ? (
        <form className="deny-form" onSubmit={onDeny}>
          <label className="deny-label">
            <span>Reason (optional) — the agent is told</span>
            <input
              ref={reasonRef}
              className="errand-input"
              type="text"
              value={reason}
              maxLength={2000}
              placeholder="e.g. Don't touch that file; write to notes.txt instead"
              onChange={(e) => setReason(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  setDenying(false);
                }
              }}
            />
          </label>
          <div className="agent-card-actions">
            <button type="submit" className="btn btn-danger" aria-disabled={!live} disabled={pending}>
              Deny
            </button>
            <button type="button" className="btn btn-ghost" disabled={pending} onClick={() => setDenying(false)}>
              Cancel
            </button>
            {stopButton}
          </div>
        </form>
      ) : (
        <div className="agent-card-actions">
          <button
            type="button"
            className="btn btn-primary"
            aria-disabled={!live}
            onClick={guarded(() => void run(() => approveTool(task.id, approval.callId, false)))}
          >
            {network ? 'Allow network for this task' : 'Approve'}
          </button>
          {!local && !network && (
            <button
              type="button"
              className="btn btn-ghost"
              aria-disabled={!live}
              title={`Run ${approval.tool} without asking again until this task ends`}
              onClick={guarded(() => void run(() => approveTool(task.id, approval.callId, true)))}
            >
              Approve for this task
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost"
            aria-disabled={!live}
            onClick={guarded(() => setDenying(true))}
          >
            Deny
          </button>
          {stopButton}
        </div>
      )}
    </section>
  );
}
