import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../api';
import type { Conversation } from '../api/types';
import { conversation, deferred, NOTHING_USED, resetStores, summary } from '../test/fixtures';
import { createConversation, selectConversation } from './actions';
import { useConversationsStore } from './conversations';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary('a', { title: 'A' }), summary('b', { title: 'B' })]);
  vi.mocked(api.loadConversation).mockImplementation(async (id: string) => ({ ...NOTHING_USED, conversation: conversation(id), messages: [], tasks: [] }));
});

describe('createConversation', () => {
  it('opens the new conversation', async () => {
    await selectConversation('a');
    vi.mocked(api.createConversation).mockResolvedValueOnce(conversation('fresh', { title: '' }));
    expect(await createConversation()).toBe(true);
    expect(useConversationsStore.getState().selectedId).toBe('fresh');
  });

  it('leaves open a conversation the person opened while it was being created', async () => {
    await selectConversation('a');
    const created = deferred<Conversation>();
    vi.mocked(api.createConversation).mockReturnValueOnce(created.promise);
    const done = createConversation();
    await selectConversation('b');
    created.resolve(conversation('fresh', { title: '' }));
    expect(await done).toBe(true);
    expect(useConversationsStore.getState().selectedId).toBe('b');
    expect(useConversationsStore.getState().byId.fresh).toBeDefined();
  });
});
