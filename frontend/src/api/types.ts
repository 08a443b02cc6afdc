// Types of the JSON the Go backend sends (see backend/chat/chat.go).
// The generated bindings return Promise<any>; src/api casts to these.

/** RFC 3339 timestamp as Go's encoding/json writes time.Time. */
export type Timestamp = string;

export interface Conversation {
  id: string;
  title: string;
  /** True once the user renamed the conversation. */
  titleSet: boolean;
  /** Remembered per conversation: true routes messages to the agent loop. */
  agentMode: boolean;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ConversationSummary extends Conversation {
  activeTask?: Task;
  messageCount: number;
}

export type Role = 'user' | 'assistant' | 'tool' | 'system';

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text produced by the model; may be invalid. */
  arguments: string;
}

export interface Message {
  id: string;
  conversationId: string;
  taskId?: string;
  role: Role;
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  step?: number;
  streaming?: boolean;
  seq: number;
  rev: number;
  createdAt: Timestamp;
}

export type TaskStatus =
  | 'running'
  | 'thinking'
  | 'tool_executing'
  | 'waiting_user'
  | 'completed'
  | 'cancelled'
  | 'error';

export type TaskMode = 'agent' | 'chat';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface Task {
  id: string;
  conversationId: string;
  mode: TaskMode;
  status: TaskStatus;
  originalPrompt: string;
  stepCount: number;
  startedAt: Timestamp;
  endedAt?: Timestamp;
  pendingQuestion?: string;
  pendingChoices?: string[];
  errorMessage?: string;
  currentTool?: string;
  usage: Usage;
  model: string;
  summary?: string;
}

export interface StopResult {
  stopped: boolean;
  task: Task;
  message: string;
}

export interface ConversationView {
  conversation: Conversation;
  messages: Message[];
  tasks: Task[];
  activeTask?: Task;
}

export interface ModelInfo {
  model: string;
  baseUrl: string;
  demo: boolean;
}

/** Error codes the Go side rejects with. */
export type ErrorCode = 'invalid' | 'not_found' | 'conflict' | 'internal' | 'model';

// ---- Event payloads (runtime.EventsOn) ----

export interface TaskMessageEvent {
  conversationId: string;
  taskId: string;
  message: Message;
}

export interface MessageDeltaEvent {
  conversationId: string;
  taskId: string;
  messageId: string;
  /** Length in UTF-8 BYTES of the message content before this delta. */
  offset: number;
  text: string;
  rev: number;
}

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled', 'error'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** The agent is working and the user can only stop it. */
export function isBusy(status: TaskStatus): boolean {
  return status === 'running' || status === 'thinking' || status === 'tool_executing';
}
