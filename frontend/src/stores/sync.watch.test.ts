// Facts, MCP servers and a task's changed files: read while a view shows
// them, kept up to date by events, let go with the last view.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../api';
import type { Fact, FilesChanged, MCPServerState } from '../api/types';
import { deferred, resetStores } from '../test/fixtures';
import { useFactsStore } from './facts';
import { useFilesChangedStore } from './filesChanged';
import { useMcpServersStore } from './mcpServers';
import { handleFactsChanged, applyFilesChanged, handleMCPServer, loadFacts, watchFacts, watchFilesChanged, watchMcpServers } from './sync';

const fact = (id: string, value: string): Fact => ({
  id,
  key: 'name',
  value,
  scope: 'global',
  conversationId: '',
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
});

const server = (status: MCPServerState['status']): MCPServerState =>
  ({ server: { id: 's1', name: 'everything' }, status, tools: [] }) as unknown as MCPServerState;

const files = (undone: boolean): FilesChanged => ({ taskId: 't1', undone, pruned: false, dismissed: false, notUndoable: [], files: [{ path: 'a.txt', change: 'created' }] });

// A read starts a microtask after it is asked for (loadFacts); this runs after it.
const flush = () => new Promise<void>((r) => queueMicrotask(r));

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

describe('facts', () => {
  it('an older read never overwrites a newer one', async () => {
    const first = deferred<Fact[]>();
    const second = deferred<Fact[]>();
    vi.mocked(api.listFacts).mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const a = loadFacts(null);
    const b = loadFacts(null);
    second.resolve([fact('f', 'Grace')]);
    await b;
    first.resolve([fact('f', 'Ada')]);
    await a;
    expect(useFactsStore.getState().byConversation['']?.list?.[0]?.value).toBe('Grace');
  });

  it('events reload the views they concern; the last view to go lets the facts go', async () => {
    vi.mocked(api.listFacts).mockResolvedValue([fact('f', 'Ada')]);
    const one = watchFacts('c1');
    const two = watchFacts('c1');
    await vi.waitFor(() => expect(useFactsStore.getState().byConversation.c1?.list).toHaveLength(1));
    expect(api.listFacts).toHaveBeenCalledTimes(1); // the second view shares the first one's read
    vi.mocked(api.listFacts).mockClear();
    handleFactsChanged({ conversationId: 'other' });
    await flush();
    expect(api.listFacts).not.toHaveBeenCalled();
    handleFactsChanged({ conversationId: 'c1' });
    await flush();
    expect(api.listFacts).toHaveBeenCalledTimes(1);
    expect(api.listFacts).toHaveBeenCalledWith('c1');
    one();
    expect(useFactsStore.getState().byConversation.c1).toBeDefined();
    two();
    expect(useFactsStore.getState().byConversation.c1).toBeUndefined();
    vi.mocked(api.listFacts).mockClear();
    handleFactsChanged({ conversationId: '' });
    await flush();
    expect(api.listFacts).not.toHaveBeenCalled();
  });
});

describe('MCP servers', () => {
  it('a status event replaces its server in the list; the list is let go with the last view', async () => {
    vi.mocked(api.listMCPServers).mockResolvedValue([server('starting')]);
    const stop = watchMcpServers();
    await vi.waitFor(() => expect(useMcpServersStore.getState().servers).toHaveLength(1));
    handleMCPServer(server('ready'));
    expect(useMcpServersStore.getState().servers?.[0]?.status).toBe('ready');
    stop();
    expect(useMcpServersStore.getState().servers).toBeNull();
  });
});

describe('files a task changed', () => {
  it('an undo stored elsewhere replaces what a card shows; a task no card shows is not held', async () => {
    vi.mocked(api.filesChanged).mockResolvedValue(files(false));
    const stop = watchFilesChanged('t1');
    await vi.waitFor(() => expect(useFilesChangedStore.getState().byTask.t1?.changed?.undone).toBe(false));
    applyFilesChanged(files(true));
    expect(useFilesChangedStore.getState().byTask.t1?.changed?.undone).toBe(true);
    applyFilesChanged({ ...files(true), taskId: 't2' });
    expect(useFilesChangedStore.getState().byTask.t2).toBeUndefined();
    stop();
    expect(useFilesChangedStore.getState().byTask.t1).toBeUndefined();
  });
});
