import { useEffect, useState } from 'react';
import * as api from '../../api';
import { chooseWorkspace, setWorkspace } from '../../stores/agentActions';
import { useConversationsStore } from '../../stores/conversations';
import { useConversationTotals } from '../../stores/usage';
import { formatCost, formatTokens, usageBreakdown } from './format';
import './agent.css';

/** The folder's last parts, for a narrow header: "…/projects/site". */
function shortPath(p: string, keep = 3): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= keep) return p;
  return `…/${parts.slice(-keep).join('/')}`;
}

function WorkspaceFolder({ conversationId }: { conversationId: string }) {
  const custom = useConversationsStore((s) => s.byId[conversationId]?.workspace || '');
  const [dir, setDir] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  // The folder as Go resolves it (the default one when none was chosen);
  // asked again whenever the conversation's choice changes.
  useEffect(() => {
    let live = true;
    setDir(null);
    Promise.resolve()
      .then(() => api.workspaceDir(conversationId))
      .then(
      (d) => {
        if (live) setDir(typeof d === 'string' ? d : '');
      },
      () => {
        if (live) setDir('');
      },
    );
    return () => {
      live = false;
    };
  }, [conversationId, custom]);

  const run = async (fn: () => Promise<boolean>) => {
    setPending(true);
    try {
      await fn();
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="ws-folder" role="group" aria-label="Workspace folder">
      <svg className="ws-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path
          d="M1.75 3.5A1.25 1.25 0 0 1 3 2.25h3.1l1.5 1.5H13A1.25 1.25 0 0 1 14.25 5v7.5A1.25 1.25 0 0 1 13 13.75H3a1.25 1.25 0 0 1-1.25-1.25z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="ws-label">{custom ? 'Workspace' : 'Workspace (default)'}</span>
      <span className="ws-path" title={dir || undefined} data-testid="ws-path">
        {dir === null ? '…' : dir === '' ? 'unknown' : shortPath(dir)}
        {dir ? <span className="sr-only">: {dir}</span> : null}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        disabled={pending}
        title="Choose the folder the agent's file and command tools work in"
        onClick={() => void run(() => chooseWorkspace(conversationId))}
      >
        Choose folder…
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

function ConversationUsage({ conversationId }: { conversationId: string }) {
  const totals = useConversationTotals(conversationId);
  if (!totals || totals.usage.totalTokens <= 0) return null;
  return (
    <span
      className="conv-usage"
      title={`This conversation in all: ${usageBreakdown(totals.usage)}, ${formatCost(totals.costUsd)}`}
      aria-label={`Conversation usage: ${formatTokens(totals.usage.totalTokens)}, ${formatCost(totals.costUsd)}`}
    >
      <span>{formatTokens(totals.usage.totalTokens)}</span>
      <span className="conv-usage-sep" aria-hidden="true">
        ·
      </span>
      <span>{formatCost(totals.costUsd)}</span>
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
