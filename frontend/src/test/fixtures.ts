import type { Conversation, ConversationSummary, Message, MessageDeltaEvent, Task } from '../api/types';
import { useAppStore } from '../stores/app';
import { useConversationsStore } from '../stores/conversations';
import { useDraftsStore } from '../stores/drafts';
import { useFactsStore } from '../stores/facts';
import { useFilesChangedStore } from '../stores/filesChanged';
import { useMcpServersStore } from '../stores/mcpServers';
import { useMessagesStore } from '../stores/messages';
import { useModelsStore } from '../stores/models';
import { useNoticesStore } from '../stores/notices';
import { useTasksStore } from '../stores/tasks';
import { useSettingsView } from '../stores/settingsView';
import { useUsageStore } from '../stores/usage';
import { resetSync } from '../stores/sync';

let seq = 100;

export function conversation(id: string, over: Partial<Conversation> = {}): Conversation {
  return {
    id,
    title: `Conversation ${id}`,
    titleSet: false,
    mode: 'agent',
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
    ...over,
  };
}

export function summary(id: string, over: Partial<ConversationSummary> = {}): ConversationSummary {
  return { ...conversation(id), ...over };
}

export function message(id: string, conversationId: string, over: Partial<Message> = {}): Message {
  return {
    id,
    conversationId,
    role: 'assistant',
    content: '',
    seq: ++seq,
    rev: 1,
    createdAt: '2026-01-01T10:00:01Z',
    ...over,
  };
}

export function task(id: string, conversationId: string, over: Partial<Task> = {}): Task {
  return {
    id,
    conversationId,
    mode: 'agent',
    status: 'running',
    originalPrompt: 'do it',
    stepCount: 0,
    startedAt: '2026-01-01T10:00:00Z',
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    model: 'test-model',
    ...over,
  };
}

export function delta(
  conversationId: string,
  messageId: string,
  offset: number,
  text: string,
  rev: number,
): MessageDeltaEvent {
  return { conversationId, taskId: 't', messageId, offset, text, rev };
}

/** Fresh stores between tests. */
export function resetStores(): void {
  resetSync();
  useConversationsStore.getState().reset();
  useMessagesStore.getState().reset();
  useTasksStore.getState().reset();
  useUsageStore.getState().reset();
  useNoticesStore.getState().reset();
  useDraftsStore.getState().reset();
  useAppStore.getState().reset();
  useModelsStore.getState().reset();
  useSettingsView.getState().reset();
  useFactsStore.getState().reset();
  useMcpServersStore.getState().reset();
  useFilesChangedStore.getState().reset();
}

/** A promise with its resolve/reject exposed. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
