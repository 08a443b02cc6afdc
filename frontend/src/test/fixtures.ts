import { usePromptsStore } from '../stores/prompts';
import type { Conversation, ConversationSummary, ConversationView, Message, MessageDeltaEvent, ModelInfo, Settings, Task, Usage } from '../api/types';
import { useAppStore } from '../stores/app';
import { useComposerFiles } from '../stores/composerFiles';
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
import { useWorkspacesStore } from '../stores/workspaces';
import { flushDeltas, queueDelta, resetSync } from '../stores/sync';
import { resetStart } from '../stores/actions';
import { forgetAttachmentImages } from '../features/attachments/useAttachmentImage';
import type { ConversationUpdate } from '../stores/conversationsReducer';

let seq = 100;

export function conversation(id: string, over: Partial<Conversation> = {}): Conversation {
  return {
    id,
    title: `Conversation ${id}`,
    titleSet: false,
    mode: 'agent',
    workspace: '',
    model: '',
    agentId: '',
    state: 'active',
    archived: false,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
    ...over,
  };
}

/** The conversation as an update that lacks its workspace. */
export function withoutWorkspace(c: Conversation): ConversationUpdate {
  const { workspace, ...rest } = c;
  void workspace;
  return rest;
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
    usage: usage(0, 0),
    model: 'test-model',
    agentId: '',
    rev: 1,
    limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 5 },
    costUsd: 0,
    activeMs: 0,
    contextTokens: 0,
    contextLimit: 0,
    ...over,
  };
}

/** A model call's usage, none of it from the prompt cache. */
export function usage(promptTokens: number, completionTokens: number): Usage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** A conversation's totals as OpenConversation sends them when nothing was used yet. */
export const NOTHING_USED: Pick<ConversationView, 'usage' | 'costUsd'> = { usage: usage(0, 0), costUsd: 0 };

/** Settings as Go sends them (chat.DefaultSettings, without its price table), with over on top. */
export function settings(over: Partial<Settings> = {}): Settings {
  return {
    autoApprove: { read_only: true, writes: false, destructive: false },
    limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 1 },
    stepDelayMs: 0,
    prices: {},
    contextLengths: {},
    provider: { preset: '', baseUrl: '', model: '' },
    systemPrompt: '',
    memoryEnabled: true,
    notifications: true,
    mcpCallTimeoutSec: 120,
    checkpointLimitMb: 1024,
    checkpointExclude: ['.git', 'node_modules'],
    defaultMode: 'auto',
    reflectionRounds: 2,
    autoAskModel: false,
    showThinking: true,
    modelFirstByteTimeoutSec: 120,
    modelIdleTimeoutSec: 60,
    reasoningEffort: {},
    ...over,
  };
}

/** ModelInfo for a model from Settings, or the demo's. */
export function modelInfo(over: Partial<ModelInfo> = {}): ModelInfo {
  const demo = over.demo ?? false;
  return { model: '', baseUrl: '', demo, source: demo ? 'demo' : 'settings', preset: demo ? 'demo' : '', ...over };
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

/** A delta from Go, as the window receives it (queued for the next frame), shown at once as at that frame. */
export function deliverDelta(ev: MessageDeltaEvent): void {
  queueDelta(ev);
  flushDeltas();
}

/** Fresh stores between tests. */
export function resetStores(): void {
  resetSync();
  resetStart();
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
  useComposerFiles.getState().reset();
  usePromptsStore.setState({ list: [], loaded: false });
  useWorkspacesStore.getState().reset();
  forgetAttachmentImages();
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
