// The only module that talks to the generated Wails bindings. Everything
// else imports from here and gets typed results and ApiError rejections.
import * as Runner from '../../wailsjs/go/app/AgentTaskRunner';
import * as Convs from '../../wailsjs/go/app/Conversations';
import { ApiError, toApiError } from './errors';
import type {
  Conversation,
  ConversationSummary,
  ConversationView,
  ModelInfo,
  StopResult,
  Task,
} from './types';

export { ApiError, toApiError } from './errors';
export type * from './types';
export { isBusy, isTerminal, TERMINAL_STATUSES } from './types';

function bridgeReady(): boolean {
  const w = globalThis as { go?: { app?: unknown } };
  return typeof w.go === 'object' && w.go !== null && w.go.app !== undefined;
}

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  if (!bridgeReady()) {
    throw new ApiError(
      'internal',
      "Errand's Go backend is not connected. Run the app with `wails dev` or the built binary.",
    );
  }
  try {
    return (await fn()) as T;
  } catch (err) {
    throw toApiError(err);
  }
}

// ---- AgentTaskRunner ----

export function startTask(conversationId: string, text: string): Promise<Task> {
  return call(() => Runner.StartTask(conversationId, text));
}

export function sendChat(conversationId: string, text: string): Promise<Task> {
  return call(() => Runner.SendChat(conversationId, text));
}

export function stopTask(taskId: string): Promise<StopResult> {
  return call(() => Runner.StopTask(taskId));
}

export function userResponse(taskId: string, answer: string): Promise<void> {
  return call(() => Runner.UserResponse(taskId, answer));
}

export function getTask(taskId: string): Promise<Task> {
  return call(() => Runner.GetTask(taskId));
}

// ---- Conversations ----

export function createConversation(): Promise<Conversation> {
  return call(() => Convs.CreateConversation());
}

export async function listConversations(): Promise<ConversationSummary[]> {
  const list = await call<ConversationSummary[] | null>(() => Convs.ListConversations());
  return list ?? [];
}

export async function loadConversation(id: string): Promise<ConversationView> {
  const view = await call<ConversationView>(() => Convs.LoadConversation(id));
  // Go encodes empty slices as null.
  return { ...view, messages: view.messages ?? [], tasks: view.tasks ?? [] };
}

export function renameConversation(id: string, title: string): Promise<Conversation> {
  return call(() => Convs.RenameConversation(id, title));
}

export function setAgentMode(id: string, on: boolean): Promise<Conversation> {
  return call(() => Convs.SetAgentMode(id, on));
}

export function deleteConversation(id: string): Promise<void> {
  return call(() => Convs.DeleteConversation(id));
}

export function modelInfo(): Promise<ModelInfo> {
  return call(() => Convs.ModelInfo());
}
