// Types of the JSON the Go backend sends. Go is their one source:
// - the interfaces are the ones Wails generates from the bound methods'
//   Go types (wailsjs/go/models.ts);
// - event names and payloads, error codes and the values of Go's string
//   types (statuses, risks, outcomes…) are in contract.gen.ts, which
//   app/cmd/contract writes from the Go source.
// `make bindings` regenerates both; `make vet` fails when either differs
// from what is committed. What is written here by hand: the generated
// types with their string fields narrowed to those values (Narrow), the
// few unions Go writes as bare literals, and helpers.
import type { agent, app, chat, mcp, providers } from '../../wailsjs/go/models';
import {
  LOCAL_NETWORK_RISKS,
  NETWORK_RISKS,
  type SandboxState,
  type ChatMode,
  type ConversationMode,
  type DecidedBy,
  type FactScope,
  type FieldType,
  type MCPStatus,
  type MCPTransport,
  type Risk,
  type Role,
  type StepStatus,
  type TaskMessageEvent as WireTaskMessageEvent,
  type TaskStatus,
  type ToolOutcome,
  type Delivery,
  type AttachmentKind,
  type FileChange,
  type PauseReason,
  type ReasoningEffort,
} from './contract.gen';

export type {
  AttachmentKind,
  FileChange,
  PauseReason,
  ReasoningEffort,
  ChatMode,
  ConversationMode,
  ConversationState,
  EndedBy,
  DecidedBy,
  Delivery,
  ErrorCode,
  EventName,
  FactScope,
  FactsChangedEvent,
  FieldType,
  FileChoice,
  FrontendError,
  MCPStatus,
  MCPTransport,
  MessageDeltaEvent,
  Risk,
  Role,
  StepStatus,
  TaskStatus,
  ToolOutcome,
  ToolOutputEvent,
  VerdictKind,
} from './contract.gen';
export { ERROR_CODES, EVENTS, REASONING_EFFORTS, RISKS, TASK_STATUSES } from './contract.gen';

/**
 * Go's type T with some fields narrowed: a field Go declares as a string
 * whose values its constants fix (contract.gen.ts), or one that holds such
 * a type. N may name only T's fields, each with a type T's field accepts,
 * so a field renamed or retyped in Go fails to compile here.
 */
type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? T[K] : never }> = Omit<T, keyof N> & N;

/** A task runs as an agent or answers as a chat; 'auto' is only a conversation's mode. */
export type TaskMode = Exclude<ConversationMode, 'auto'>;

export type Conversation = Narrow<chat.Conversation, { mode: ConversationMode }>;
export type ConversationSummary = Narrow<chat.ConversationSummary, { mode: ConversationMode; activeTask?: Task }>;
export type ToolCall = chat.ToolCall;
export type Attachment = Narrow<chat.Attachment, { kind: AttachmentKind }>;
export type Message = Narrow<
  chat.Message,
  { role: Role; outcome?: ToolOutcome; delivery?: Delivery; attachments?: Attachment[] }
>;
export type Summary = chat.Summary;
/** A variation as it is written (events.onVariation) and once done (api.variations). */
export type Variation = Narrow<agent.Variation, { message?: Message }>;
export type Usage = chat.Usage;
export type AgentStats = chat.AgentStats;
export type Limits = chat.Limits;
export type Price = chat.Price;
export type Approval = Narrow<chat.Approval, { sandbox?: SandboxState }>;
export type ModeDecision = Narrow<chat.ModeDecision, { by: DecidedBy }>;
export type FormField = Narrow<chat.FormField, { type: FieldType }>;
export type InputHint = chat.InputHint;
export type PlanStep = Narrow<chat.PlanStep, { status: StepStatus }>;
export type Plan = Narrow<chat.Plan, { steps: PlanStep[] }>;

export type Task = Narrow<
  chat.Task,
  {
    mode: TaskMode;
    status: TaskStatus;
    pauseReason?: PauseReason;
    pendingFields?: FormField[];
    pendingApproval?: Approval;
    plan?: Plan;
    decision?: ModeDecision;
  }
>;

/**
 * The risk of an approval for reaching an address on this computer or the
 * local network (chat.RiskLocalNetwork): asked every time, never approved
 * in advance by the settings or for the rest of a task, so not a Risk.
 */
export const RISK_LOCAL_NETWORK = LOCAL_NETWORK_RISKS[0];

/**
 * The risk of an approval for letting a sandboxed command reach the network
 * (chat.RiskNetwork): once allowed, for the rest of the task.
 */
export const RISK_NETWORK = NETWORK_RISKS[0];

/** Whether a command would run in the sandbox (Approval.sandbox; chat.SandboxOn, chat.SandboxOff). */
export const SANDBOX_ON: SandboxState = 'sandboxed';
export const SANDBOX_OFF: SandboxState = 'not_sandboxed';

/** The agent's settings (chat.Settings); whoever saves sends back what it loaded. */
export type Settings = Narrow<
  chat.Settings,
  {
    /** Risks that run without asking. */
    autoApprove: Partial<Record<Risk, boolean>>;
    defaultMode: ConversationMode;
    reasoningEffort: Record<string, ReasoningEffort>;
  }
>;

export type ChangedFile = Narrow<chat.ChangedFile, { change: FileChange }>;
export type FilesChanged = Narrow<chat.FilesChanged, { files: ChangedFile[] }>;
export type UndoOutcome = chat.UndoOutcome;
export type CheckpointStorage = app.CheckpointStorage;
export type SnippetPart = chat.SnippetPart;
export type SearchHit = Narrow<chat.SearchHit, { role: Role }>;
export type Fact = Narrow<chat.Fact, { scope: FactScope }>;
/** Settings → Memory: every fact, and the titles of the conversations that hold some, by id. */
export type AllFacts = Narrow<app.AllFacts, { facts: Fact[] }>;
export type SavedPrompt = chat.SavedPrompt;
export type MCPServer = Narrow<chat.MCPServer, { transport: MCPTransport; toolRisks?: Record<string, Risk> }>;
export type MCPToolInfo = Narrow<mcp.ToolInfo, { risk: Risk; hintRisk: Risk }>;
export type MCPServerState = Narrow<mcp.State, { server: MCPServer; status: MCPStatus; tools: MCPToolInfo[] }>;
export type HealthStatus = app.Status;
/** Settings → About. */
export type AboutInfo = app.AboutInfo;
export type WorkspaceInfo = app.WorkspaceInfo;
export type StopResult = Narrow<agent.StopResult, { task: Task }>;
export type ConversationView = Narrow<
  chat.ConversationView,
  { conversation: Conversation; messages: Message[]; tasks: Task[]; activeTask?: Task }
>;
export type ConversationPage = Narrow<chat.ConversationPage, { items: ConversationSummary[] }>;
export type MessagePage = Narrow<chat.MessagePage, { messages: Message[] }>;
export type ModelInfo = app.ModelInfo;
export type ProviderPreset = providers.Preset;
export type ProviderConfig = chat.ProviderConfig;
export type ProviderView = app.ProviderView;
export type ProviderInput = app.ProviderInput;
export type Verdict = providers.Verdict;
export type AgentDefinition = Narrow<chat.AgentDefinition, { mode: ChatMode }>;
/** The window's first screen, read in one call; a part Go could not read is left out. */
export type FirstScreen = Narrow<
  app.FirstScreen,
  { agents?: AgentDefinition[]; conversations?: ConversationPage; open?: ConversationView }
>;
export type TaskMessageEvent = Narrow<WireTaskMessageEvent, { message: Message }>;

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled', 'error'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** The agent is working and the user can only stop it. */
export function isBusy(status: TaskStatus): boolean {
  return status === 'running' || status === 'thinking' || status === 'tool_executing';
}

/** The task waits for the person: an answer, an approval, a decision to go on, or a resume. */
export function needsPerson(status: TaskStatus | undefined): boolean {
  return status === 'waiting_user' || status === 'waiting_approval' || status === 'paused' || status === 'interrupted';
}
