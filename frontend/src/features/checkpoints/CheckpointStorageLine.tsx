import { useEffect, useState } from 'react';
import * as api from '../../api';
import type { CheckpointStorage } from '../../api/types';
import { formatBytes } from '../../lib/bytes';

/** What checkpoints take on disk now, for the Settings section. */
export function CheckpointStorageLine() {
  const [storage, setStorage] = useState<CheckpointStorage | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.checkpointStorage().then(
      (s) => live && setStorage(s),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  if (failed) return <p className="settings-help">The space checkpoints take could not be read.</p>;
  if (!storage) return null;
  return (
    <p className="settings-help checkpoint-storage">
      Checkpoints take <strong>{formatBytes(storage.usedBytes)}</strong> of {formatBytes(storage.limitBytes)} now.
    </p>
  );
}
