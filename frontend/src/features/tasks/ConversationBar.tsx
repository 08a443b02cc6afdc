import { useEffect, useState } from 'react';
import * as api from '../../api';
import type { WorkspaceInfo } from '../../api/types';
import { usePending } from '../../lib/usePending';
import { chooseWorkspace, openWorkspaceFolder, setWorkspace } from '../../stores/taskActions';
import { useConversationsStore } from '../../stores/conversations';
import { useConversationTotals } from '../../stores/usage';
import { knownWorkspace, useWorkspacesStore } from '../../stores/workspaces';
import { formatCost, formatTokens, usageBreakdown } from './format';
import './tasks.css';

/** The folder's last parts, for a narrow header: "…/projects/site". */
export function shortPath(p: string, keep = 3): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= keep) return p;
  return `…/${parts.slice(-keep).join('/')}`;
}

/**
 * The folder as Go resolves it, asked again when the choice changes or the
 * window comes back; the last answer for the same choice shows meanwhile.
 */
function useWorkspace(conversationId: string, custom: string): WorkspaceInfo | null | 'unknown' {
  const [info, setInfo] = useState<WorkspaceInfo | null | 'unknown'>(() => knownWorkspace(conversationId, custom));
  useEffect(() => {
    let live = true;
    const read = (w: WorkspaceInfo | undefined) => {
      if (!live) return;
      if (!w || typeof w.path !== 'string') return setInfo('unknown');
      useWorkspacesStore.getState().remember(conversationId, custom, w);
      setInfo(w);
    };
    const ask = () =>
      Promise.resolve()
        .then(() => api.workspace(conversationId))
        .then(read, () => live && setInfo('unknown'));
    setInfo(knownWorkspace(conversationId, custom));
    void ask();
    // A folder removed or made while Errand was in the background.
    window.addEventListener('focus', ask);
    return () => {
      live = false;
      window.removeEventListener('focus', ask);
    };
  }, [conversationId, custom]);
  return info;
}

function WorkspaceFolder({ conversationId }: { conversationId: string }) {
  const custom = useConversationsStore((s) => s.byId[conversationId]?.workspace || '');
  const info = useWorkspace(conversationId, custom);
  const { pending, run } = usePending();

  const known = info !== null && info !== 'unknown' ? info : null;
  const missing = !!known?.missing;
  const shown = info === null ? '…' : !known ? 'unknown' : known.default ? "this conversation's own folder" : shortPath(known.path);

  return (
    <div className={`ws-folder${missing ? ' ws-missing' : ''}`} role="group" aria-label="Workspace folder">
      <svg className="ws-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path
          d="M1.75 3.5A1.25 1.25 0 0 1 3 2.25h3.1l1.5 1.5H13A1.25 1.25 0 0 1 14.25 5v7.5A1.25 1.25 0 0 1 13 13.75H3a1.25 1.25 0 0 1-1.25-1.25z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="ws-label">{missing ? 'Workspace not found:' : 'Workspace:'}</span>
      <span className="ws-path" title={known?.path || undefined} data-testid="ws-path">
        {shown}
        {known ? <span className="sr-only"> ({known.path})</span> : null}
      </span>
      {known && !missing && (
        <button
          type="button"
          className="btn btn-ghost btn-small"
          disabled={pending}
          title={`Open ${known.path} in the file manager`}
          onClick={() => void run(() => openWorkspaceFolder(conversationId))}
        >
          Open folder
        </button>
      )}
      <button
        type="button"
        className={`btn btn-small ${missing ? 'btn-primary' : 'btn-ghost'}`}
        disabled={pending}
        title="Choose the folder the agent's file and command tools work in"
        onClick={() => void run(() => chooseWorkspace(conversationId))}
      >
        {missing ? 'Choose another folder…' : 'Choose folder…'}
      </button>
      {custom ? (
        <button
          type="button"
          className="btn btn-ghost btn-small"
          disabled={pending}
          title="Go back to this conversation's own folder in Errand's data folder"
          onClick={() => void run(() => setWorkspace(conversationId, ''))}
        >
          Use default
        </button>
      ) : null}
    </div>
  );
}

/** Tokens used but nothing spent: the model has no price (Ollama, custom servers). */
export function costText(tokens: number, costUsd: number): string {
  return tokens > 0 && !(costUsd > 0) ? 'no price' : formatCost(costUsd);
}

const NO_PRICE =
  'This model has no price in Settings, so its cost is unknown and the spend limit does not apply to it.';

function ConversationUsage({ conversationId }: { conversationId: string }) {
  const totals = useConversationTotals(conversationId);
  if (!totals || totals.usage.totalTokens <= 0) return null;
  const cost = costText(totals.usage.totalTokens, totals.costUsd);
  return (
    <span
      className="conv-usage"
      title={
        cost === 'no price'
          ? `This conversation in all: ${usageBreakdown(totals.usage)}. ${NO_PRICE}`
          : `This conversation in all: ${usageBreakdown(totals.usage)}, ${cost}`
      }
      aria-label={`Conversation usage: ${formatTokens(totals.usage.totalTokens)}, ${cost}`}
    >
      <span>{formatTokens(totals.usage.totalTokens)}</span>
      <span className="conv-usage-sep" aria-hidden="true">
        ·
      </span>
      <span>{cost}</span>
    </span>
  );
}

/** Under the chat title: the workspace folder, and what the conversation has used. */
export function ConversationBar({ conversationId }: { conversationId: string }) {
  return (
    <div className="conv-bar">
      <WorkspaceFolder conversationId={conversationId} />
      <ConversationUsage conversationId={conversationId} />
    </div>
  );
}
