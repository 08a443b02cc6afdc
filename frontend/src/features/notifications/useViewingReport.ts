// Desktop notifications are decided in Go; the window tells it what the
// person looks at (the open conversation, and whether the window has the
// focus) so that none is sent about what is on screen, and opens the
// conversation of a notification that was clicked. It starts once the app
// has started (Health first, and nothing when Errand could not start).
import { useEffect } from 'react';
import * as api from '../../api';
import { onOpenConversation } from '../../events';
import { selectConversation } from '../../stores/actions';
import { useAppStore } from '../../stores/app';
import { useConversationsStore } from '../../stores/conversations';

function report(): void {
  const id = useConversationsStore.getState().selectedId ?? '';
  const focused = document.hasFocus() && document.visibilityState === 'visible';
  api.setViewing(id, focused).catch((err: unknown) => console.warn('Errand: could not report the open conversation', err));
}

export function useViewingReport(): void {
  const ready = useAppStore((s) => s.startup === 'ready');
  useEffect(() => {
    if (!ready) return;
    report();
    const unsubscribe = useConversationsStore.subscribe((s, prev) => {
      if (s.selectedId !== prev.selectedId) report();
    });
    window.addEventListener('focus', report);
    window.addEventListener('blur', report);
    document.addEventListener('visibilitychange', report);
    const off = onOpenConversation((id) => void selectConversation(id));
    return () => {
      unsubscribe();
      off();
      window.removeEventListener('focus', report);
      window.removeEventListener('blur', report);
      document.removeEventListener('visibilitychange', report);
    };
  }, [ready]);
}
