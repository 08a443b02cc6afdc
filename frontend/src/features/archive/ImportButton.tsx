// The sidebar's "Import": a conversation exported as JSON comes back as a new one.
import { useState } from 'react';
import { importConversations } from './archiveActions';

export function ImportButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-ghost import-btn"
      title="Import a conversation exported as JSON"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void importConversations().finally(() => setBusy(false));
      }}
    >
      Import
    </button>
  );
}
