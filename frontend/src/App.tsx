import { useEffect, useLayoutEffect } from 'react';
import { lazyView } from './components/LazyView';
import { useBranchUI } from './features/branches/state';
import { ErrorBoundary } from './components/ErrorBoundary';
import { Notices } from './components/Notices';
import { ChatView } from './features/chat/ChatView';
import { Sidebar } from './features/conversations/Sidebar';
import { ReadOnlyBanner, UnavailableScreen } from './features/health/HealthScreens';
import { useSearchDialog } from './features/search/searchDialog';
import { useAppShortcuts } from './features/shortcuts/useAppShortcuts';
import { useViewingReport } from './features/notifications/useViewingReport';
import { markStart } from './lib/startTimings';
import { announceFirstScreen, initApp, startApp } from './stores/actions';
import { useAppStore } from './stores/app';
import { useConfirmStore } from './stores/confirm';
import { useConversationsStore } from './stores/conversations';

// Dialogs that are not on the first screen load when they first open.
const SearchDialog = lazyView('search', () => import('./features/search/SearchDialog').then((m) => m.SearchDialog));
const BranchDialog = lazyView('branching', () => import('./features/branches/BranchDialog').then((m) => m.BranchDialog));
const VariationsView = lazyView('Variations', () =>
  import('./features/branches/VariationsView').then((m) => m.VariationsView),
);
const ConfirmDialog = lazyView('the question', () => import('./components/ConfirmDialog').then((m) => m.ConfirmDialog), {
  prefetch: true,
});

function Dialogs() {
  const search = useSearchDialog((s) => s.open);
  const branch = useBranchUI((s) => s.branchFrom !== null);
  const variations = useBranchUI((s) => s.variationsOf !== null);
  const confirm = useConfirmStore((s) => s.request !== null);
  return (
    <>
      {search && <SearchDialog />}
      {branch && <BranchDialog />}
      {variations && <VariationsView />}
      {confirm && <ConfirmDialog />}
    </>
  );
}

function MainPane() {
  const selectedId = useConversationsStore((s) => s.selectedId);
  const startup = useAppStore((s) => s.startup);
  if (selectedId) return <ChatView conversationId={selectedId} />;
  return (
    <section className="chat chat-empty" aria-label="Chat">
      {startup === 'failed' ? (
        <div className="empty-state">
          <h2>Could not reach Errand's backend</h2>
          <p className="muted">The conversation list could not be loaded.</p>
          <button type="button" className="btn btn-primary" onClick={() => void initApp()}>
            Try again
          </button>
        </div>
      ) : (
        <div className="empty-state muted">Loading…</div>
      )}
    </section>
  );
}

let renderMarked = false;

export function App() {
  // The start's steps (see startTimings): React's first render begins, and
  // its first commit (the DOM made, the layout effects run) is done.
  if (!renderMarked) {
    renderMarked = true;
    markStart('render');
  }
  useLayoutEffect(() => markStart('committed'), []);
  useAppShortcuts();
  useViewingReport();
  useEffect(() => {
    void startApp().then(announceFirstScreen);
  }, []);
  const health = useAppStore((s) => s.health);

  if (health && !health.ready) {
    return (
      <ErrorBoundary>
        <UnavailableScreen health={health} />
      </ErrorBoundary>
    );
  }

  return (
    <ErrorBoundary>
      <div className="app">
        <Sidebar />
        <main className="main">
          <ReadOnlyBanner />
          <ErrorBoundary>
            <MainPane />
          </ErrorBoundary>
        </main>
        <Notices />
        <Dialogs />
      </div>
    </ErrorBoundary>
  );
}
