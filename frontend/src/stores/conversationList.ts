// The sidebar's list in pages: the first page at start, the next as the
// person scrolls, and title searches that run in Go (SQLite), not over
// what happens to be loaded.
import * as api from '../api';
import { CONVERSATION_PAGE } from '../api/pageSizes';
import type { ConversationPage, ConversationSummary } from '../api/types';
import { useConversationsStore } from './conversations';
import { reportError } from './notices';
import { applyTasks } from './sync';

function applyActive(items: readonly ConversationSummary[]): void {
  applyTasks(
    items.flatMap((c) => (c.activeTask ? [c.activeTask] : [])),
    'snapshot',
  );
}

/** Reads the first page of the list (at start); a failure rejects. */
export async function loadFirstConversations(): Promise<void> {
  showFirstConversations(await api.listConversationsPage('', '', CONVERSATION_PAGE));
}

/** Shows the first page of the list, as Go read it. */
export function showFirstConversations(page: ConversationPage): void {
  useConversationsStore.getState().setAll(page.items, page.nextCursor);
  applyActive(page.items);
}

/** Reads the list's next page, if there is one and none is being read. */
export async function loadMoreConversations(): Promise<void> {
  const s = useConversationsStore.getState();
  const cursor = s.listCursor;
  if (!cursor || s.listLoading) return;
  s.setListLoading(true);
  try {
    const page = await api.listConversationsPage('', cursor, CONVERSATION_PAGE);
    if (useConversationsStore.getState().listCursor !== cursor) return; // the list was read again meanwhile
    useConversationsStore.getState().addListPage(page.items, page.nextCursor);
    applyActive(page.items);
  } catch (err) {
    useConversationsStore.getState().setListFailed(true);
    reportError(err, 'Could not list more conversations');
  } finally {
    useConversationsStore.getState().setListLoading(false);
  }
}

/**
 * Shows the conversations whose title contains query (Go searches them
 * all) — the archived ones in the Archived view — or the list again when
 * query is blank. An answer to a search the person has since changed is
 * dropped.
 */
export async function searchConversations(query: string, agent = '', archived = false): Promise<void> {
  const q = query.trim();
  const store = useConversationsStore.getState();
  if (!q && !agent && !archived) {
    store.setSearch(null);
    return;
  }
  store.setSearch({ query: q, agent, archived, ids: [], cursor: '', loading: true });
  await readSearch(q, agent, archived, '');
}

/** Reads the next page of the current search. */
export async function loadMoreSearch(): Promise<void> {
  const search = useConversationsStore.getState().search;
  if (!search || !search.cursor || search.loading) return;
  useConversationsStore.getState().setSearch({ ...search, loading: true });
  await readSearch(search.query, search.agent ?? '', !!search.archived, search.cursor);
}

async function readSearch(query: string, agent: string, archived: boolean, cursor: string): Promise<void> {
  const current = () => {
    const s = useConversationsStore.getState().search;
    return s && s.query === query && (s.agent ?? '') === agent && !!s.archived === archived ? s : null;
  };
  try {
    const page = await api.listConversationsPage(query, cursor, CONVERSATION_PAGE, agent, archived);
    const s = current();
    if (!s) return;
    const store = useConversationsStore.getState();
    for (const c of page.items) store.upsert(c);
    applyActive(page.items);
    const seen = new Set(s.ids);
    const ids = [...s.ids, ...page.items.map((c) => c.id).filter((id) => !seen.has(id))];
    store.setSearch({ query, agent, archived, ids, cursor: page.nextCursor, loading: false });
  } catch (err) {
    const s = current();
    if (s) useConversationsStore.getState().setSearch({ ...s, loading: false, failed: true });
    reportError(err, 'Could not search the conversations');
  }
}
