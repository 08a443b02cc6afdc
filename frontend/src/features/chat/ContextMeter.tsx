import { useState } from 'react';
import { compactNow } from '../../stores/taskActions';
import { useLatestTask, useTaskAtWorkLater } from '../../stores/tasks';
import { useMessagesStore } from '../../stores/messages';

const fmt = new Intl.NumberFormat('en-US');

/**
 * "Compact now": summarises older messages for the model. Nothing to
 * compact in a conversation without messages (shown: false); disabled while
 * a task runs or a compaction is under way.
 */
export function useCompact(conversationId: string) {
  const atWork = useTaskAtWorkLater(conversationId);
  const [busy, setBusy] = useState(false);
  const empty = useMessagesStore((s) => {
    const c = s.byConversation[conversationId];
    return !c || (c.ids.length === 0 && !c.hasOlder && !c.hasNewer);
  });
  const run = async () => {
    setBusy(true);
    try {
      await compactNow(conversationId);
    } finally {
      setBusy(false);
    }
  };
  return {
    shown: !empty,
    label: busy ? 'Compacting…' : 'Compact now',
    disabled: busy || atWork,
    title: atWork ? 'Wait for the task to finish, or stop it, to compact' : 'Summarise older messages for the model',
    run: () => void run(),
  };
}

/**
 * How full the model's context was at the conversation's last request,
 * and "Compact now" (in a narrow window it is in More actions instead).
 * The meter is hidden while the size is unknown.
 */
export function ContextMeter({ conversationId, withCompact = true }: { conversationId: string; withCompact?: boolean }) {
  const latest = useLatestTask(conversationId);
  const compact = useCompact(conversationId);
  const used = latest?.contextTokens ?? 0;
  const limit = latest?.contextLimit ?? 0;
  const known = limit > 0 && used > 0;
  const pct = known ? Math.min(100, Math.round((used / limit) * 100)) : 0;

  return (
    <div className="context-tools">
      {known && (
        <div
          role="meter"
          aria-label="Context"
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={`${fmt.format(used)} of ${fmt.format(limit)} tokens`}
          title={`${fmt.format(used)} of ${fmt.format(limit)} tokens`}
          className={`context-meter${pct >= 75 ? ' context-meter-high' : ''}`}
        >
          <span className="context-meter-bar" style={{ width: `${pct}%` }} />
        </div>
      )}
      {withCompact && compact.shown && (
        <button type="button" className="btn btn-ghost btn-small" disabled={compact.disabled} title={compact.title} onClick={compact.run}>
          {compact.label}
        </button>
      )}
    </div>
  );
}
