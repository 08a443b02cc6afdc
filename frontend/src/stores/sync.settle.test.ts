import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, message, resetStores, task, NOTHING_USED } from '../test/fixtures';

import * as api from '../api';
import { useMessagesStore } from './messages';
import { handleTaskMessage, handleTaskUpdate, SETTLE_MS } from './sync';

const C = 'c';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.useFakeTimers();
  vi.mocked(api.loadConversation).mockResolvedValue({ ...NOTHING_USED, conversation: conversation(C), messages: [], tasks: [] });
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, []);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('events and stored state agree', () => {
  it('an ended task whose reply still streams here reloads the conversation', async () => {
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('m', C, { taskId: 't', streaming: true }) });
    handleTaskUpdate(task('t', C, { status: 'cancelled' }));
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 10);
    expect(api.loadConversation).toHaveBeenCalledWith(C);
  });

  it('no reload when the closing message arrived', async () => {
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('m', C, { taskId: 't', streaming: true }) });
    handleTaskUpdate(task('t', C, { status: 'completed' }));
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('m', C, { taskId: 't', streaming: false, rev: 2 }) });
    await vi.advanceTimersByTimeAsync(SETTLE_MS + 10);
    expect(api.loadConversation).not.toHaveBeenCalled();
  });
});
