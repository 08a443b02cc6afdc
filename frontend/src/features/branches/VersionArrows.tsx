import { useState } from 'react';
import { showVersion } from '../../stores/branchActions';

/** "‹ 1/2 ›" on a message with versions: the arrows switch the branch shown. */
export function VersionArrows({
  conversationId,
  messageId,
  version,
  versions,
  busy,
}: {
  conversationId: string;
  messageId: string;
  version: number;
  versions: number;
  /** A task runs in the conversation: the branch cannot change. */
  busy: boolean;
}) {
  const [pending, setPending] = useState(false);
  if (versions < 2) return null;
  const go = async (step: -1 | 1) => {
    setPending(true);
    await showVersion(conversationId, messageId, step);
    setPending(false);
  };
  const why = busy ? 'A task is in progress here; wait for it to finish' : undefined;
  return (
    <span className="version-arrows" role="group" aria-label="Versions">
      <button
        type="button"
        className="version-arrow"
        aria-label="Previous version"
        title={why}
        disabled={pending || busy || version <= 1}
        onClick={() => void go(-1)}
      >
        ‹
      </button>
      <span className="version-count">
        {version}/{versions}
      </span>
      <button
        type="button"
        className="version-arrow"
        aria-label="Next version"
        title={why}
        disabled={pending || busy || version >= versions}
        onClick={() => void go(1)}
      >
        ›
      </button>
    </span>
  );
}
