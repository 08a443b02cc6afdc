// Types of the JSON the Go backend sends (see backend/chat/chat.go).
// The generated bindings return Promise<any>; src/api casts to these.
// Go is the source: app/wiretypes_test.go checks every interface here
// against its Go struct's json tags (field names both ways, and that a
// field Go omits when empty is optional here).

/** RFC 3339 timestamp as Go's encoding/json writes time.Time. */
export type Timestamp = string;

export interface Conversation {
  id: string;
  title: string;
  /** True once the user renamed the conversation. */
  titleSet: boolean;
  /** Remembered per conversation: auto decides per message; agent and chat always run that way. */
  mode: ConversationMode;
  /** The folder the agent's file and shell tools work in; '' means the default one. */
  workspace?: string;
  /** The model this conversation uses; '' (or absent) means the default one. */
  model?: string;
  /** The agent the conversation talks to; '' (or absent) is Errand. */
  agentId?: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ConversationSummary extends Conversation {
  activeTask?: Task;
}

export type Role = 'user' | 'assistant' | 'tool' | 'system';

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text produced by the model; may be invalid. */
  arguments: string;
}

/** How a tool call ended when it did not simply run (chat.ToolOutcome). */
export type ToolOutcome = 'denied' | 'stopped' | 'cut_off';

/** Where a message added while the agent worked is on its way to the model (chat.Delivery). */
export type Delivery = 'queued' | 'not_delivered';

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
  /** On a tool result: how a call ended that did not simply run ('' or absent otherwise). */
  outcome?: ToolOutcome;
  /** Added while the agent worked: queued until its next step, not_delivered if the task ended first. */
  delivery?: Delivery;
  step?: number;
  streaming?: boolean;
  /** The model call's usage and cost, on the assistant message of each step. */
  usage?: Usage;
  costUsd?: number;
  /** Set on the notice "Earlier messages summarised": the summary the model sees instead of the messages before it. */
  summaryId?: string;
  /** The message this one continues in the conversation's tree (absent on a first message). */
  parentId?: string;
  /** This message and its siblings (other continuations of its parent), and its place among them from 1; absent when it has none. */
  versions?: number;
  version?: number;
  /** Absent on the current branch; off it, the number of the switch that took it off (the highest was left last). */
  offBranch?: number;
  /** An assistant message's thinking, kept apart from its content (never in copy or search). */
  reasoning?: string;
  /** How long the model thought, in ms. */
  reasoningMs?: number;
  seq: number;
  rev: number;
  createdAt: Timestamp;
}

/** What compaction made of a conversation's older messages, for the model's view. */
export interface Summary {
  id: string;
  conversationId: string;
  /** The seq of the last message it covers. */
  throughSeq: number;
  text: string;
  /** The tools the summarised messages ran, one a line, with whether they succeeded. */
  toolLog: string;
  createdAt: Timestamp;
}

export type TaskStatus =
  | 'running'
  | 'thinking'
  | 'tool_executing'
  | 'waiting_user'
  /** A tool that writes or is destructive waits for the person's approval. */
  | 'waiting_approval'
  /** A limit (steps, time, spend) was reached, or the agent repeated itself. */
  | 'paused'
  /** Errand closed while the task was working; it holds its conversation until resumed or dismissed. */
  | 'interrupted'
  | 'completed'
  | 'cancelled'
  | 'error';

export type TaskMode = 'agent' | 'chat';

/** A conversation's mode: Auto decides per message between a task and a direct answer. */
export type ConversationMode = TaskMode | 'auto';

export interface Usage {
  /** The whole prompt, cached parts included. */
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** The part of the prompt read from the server's prompt cache (Anthropic); older data lacks it. */
  cacheReadTokens?: number;
  /** The part of the prompt written to the server's prompt cache. */
  cacheWriteTokens?: number;
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
  /** Several choices may be picked; the answer is a JSON array. */
  pendingMultiple?: boolean;
  /** A free-text "Other" beside the choices. */
  pendingAllowOther?: boolean;
  /** A form to fill in; the answer is a JSON object of field values. */
  pendingFields?: FormField[];
  /** How the agent wants the composer. */
  input?: InputHint;
  /** The agent that runs the task. */
  agentId?: string;
  /** The agent the conversation had before the person switched. */
  switchedFrom?: string;
  errorMessage?: string;
  currentTool?: string;
  /** The tool call that is running. */
  currentCallId?: string;
  usage: Usage;
  model: string;
  summary?: string;
  /** The tool call waiting for the person's decision (status waiting_approval). */
  pendingApproval?: Approval;
  /** Which limit paused the task (status paused); pendingQuestion asks whether to go on. */
  pauseReason?: PauseReason | string;
  // Go always sends the next three; optional so that partial data type-checks.
  /** This task's own limits, raised each time the person lets it continue. */
  limits?: Limits;
  /** Spend so far in US dollars, from usage and the price table. */
  costUsd?: number;
  /** Time spent working (not waiting for the person), in ms; the time limit counts it. */
  activeMs?: number;
  /** +1 with every stored change: a higher rev is newer (absent from old data). */
  rev?: number;
  /** The size of the last request to the model, in tokens as Errand counts them (0: none yet). */
  contextTokens?: number;
  /** The model's context length at that request (0: unknown). */
  contextLimit?: number;
  /** The task's newest plan (update_plan), if it has one. */
  plan?: Plan;
  /** True while Errand checks the result against the plan before accepting task_complete. */
  reflecting?: boolean;
  /** How many reflections the task has had. */
  reflections?: number;
  /** How the task's mode was chosen, when not simply the conversation's Agent or Chat mode. */
  decision?: ModeDecision;
}

/** How a message's mode was chosen (chat.ModeDecision). */
export interface ModeDecision {
  /** auto: Errand decided; forced: /task or /chat; rerun: the person asked; fallback: the model refused tools. */
  by: 'auto' | 'forced' | 'rerun' | 'fallback';
  reason?: string;
}

/** What a tool can do: set by the tool, never by the model. */
export type Risk = 'read_only' | 'writes' | 'destructive';

/** The risks the settings can approve in advance. */
export const RISKS: readonly Risk[] = ['read_only', 'writes', 'destructive'];

/**
 * The risk of an approval for reaching an address on this computer or the
 * local network (chat.RiskLocalNetwork): asked every time, never approved
 * in advance by the settings or for the rest of a task, so not a Risk.
 */
export const RISK_LOCAL_NETWORK = 'local_network';

/**
 * The risk of an approval for letting a sandboxed command reach the network
 * (chat.RiskNetwork): once allowed, for the rest of the task.
 */
export const RISK_NETWORK = 'network';

/** Whether a command would run in the sandbox (Approval.sandbox; chat.SandboxOn, chat.SandboxOff). */
export const SANDBOX_ON = 'sandboxed';
export const SANDBOX_OFF = 'not_sandboxed';

export type PauseReason = 'steps' | 'time' | 'cost' | 'repeat';

/** A tool call shown to the person before it runs. */
export interface Approval {
  callId: string;
  tool: string;
  risk: Risk | string;
  /** Pretty-printed JSON arguments. */
  arguments: string;
  /** What the call would change, as a unified diff, when the tool can tell. */
  preview?: string;
  /** The address on this computer or the local network the call wants to reach (risk local_network). */
  address?: string;
  /** For a tool that runs in a sandbox where there is one (run_command): whether this call would. */
  sandbox?: typeof SANDBOX_ON | typeof SANDBOX_OFF | string;
}

export interface Limits {
  maxSteps: number;
  maxMinutes: number;
  maxCostUsd: number;
}

/** US dollars per million tokens. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** How hard a thinking model is asked to think (Settings.reasoningEffort). */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/**
 * The agent's settings (chat.Settings). Go may send more fields than these
 * (other issues add them); whoever saves must send back what it loaded.
 */
export interface Settings {
  /** Risks ("read_only", "writes", "destructive") that run without asking. */
  autoApprove: Partial<Record<Risk, boolean>>;
  /** Defaults for new tasks. */
  limits: Limits;
  /** A pause between two model calls, in ms. */
  stepDelayMs: number;
  /** Prices by model name. */
  prices: Record<string, Price>;
  /** Context lengths by model name, in tokens. */
  contextLengths?: Record<string, number>;
  /** Replaces the built-in agent instructions when not empty. */
  systemPrompt?: string;
  /** The model server (its key is never here); saved through saveProvider. */
  provider?: ProviderConfig;
  /** The agent keeps and sees explicit facts (remember/forget); Go always sends it, true by default. */
  memoryEnabled?: boolean;
  /** A desktop notification when a task the person is not looking at ends or needs them; Go always sends it, true by default. */
  notifications?: boolean;
  /** How long one MCP tool call may take, in seconds; Go always sends it. */
  mcpCallTimeoutSec?: number;
  /** A model call is cut when its server sends nothing this long after the request, in seconds; Go always sends it. */
  modelFirstByteTimeoutSec?: number;
  /** A model call is cut when its server goes silent this long in the middle of its reply, in seconds; Go always sends it. */
  modelIdleTimeoutSec?: number;
  /** The most the file contents kept for "Undo changes" may take, in MB; Go always sends it. */
  checkpointLimitMb?: number;
  /** Folder names a workspace snapshot skips wherever they are; Go always sends it. */
  checkpointExclude?: string[];
  /** A new conversation's mode; Go always sends it, auto by default. */
  defaultMode?: ConversationMode;
  /** At most this many reflections before task_complete is accepted; 0 turns reflection off. Go always sends it. */
  reflectionRounds?: number;
  /** Auto mode may ask the model (one short call) when its local decision is unsure. */
  autoAskModel?: boolean;
  /** The models' thinking blocks are shown in the transcript; Go always sends it, true by default. */
  showThinking?: boolean;
  /** The reasoning effort sent per model name ('low', 'medium', 'high'); a model absent sends none. */
  reasoningEffort?: Record<string, ReasoningEffort>;
  [extra: string]: unknown;
}

/** One file a task changed (chat.ChangedFile). */
export interface ChangedFile {
  path: string;
  change: 'created' | 'changed' | 'deleted';
}

/** What a task did to the files (chat.FilesChanged); also the payload of checkpoint:filesChanged. */
export interface FilesChanged {
  taskId: string;
  /** The changes are undone now ("Redo changes" puts them back). */
  undone: boolean;
  /** The contents were pruned past the storage limit: the changes can no longer be undone. */
  pruned: boolean;
  files: ChangedFile[];
}

/** How one conflicting file is resolved: keep it as it is now, or restore the state the undo goes back to. */
export type FileChoice = 'keep' | 'restore';

/** What an undo or redo did (chat.UndoOutcome). With conflicts, nothing was changed. */
export interface UndoOutcome {
  restored: string[];
  kept: string[];
  conflicts: string[];
}

/** The disk space checkpoints take, and their limit (app.CheckpointStorage). */
export interface CheckpointStorage {
  usedBytes: number;
  limitBytes: number;
}

/** A piece of a search result's snippet; match marks the words found. Plain text, never markup. */
export interface SnippetPart {
  text: string;
  match?: boolean;
}

/** One message a search found (chat.SearchHit). */
export interface SearchHit {
  conversationId: string;
  conversationTitle: string;
  messageId: string;
  role: Role;
  snippet: SnippetPart[];
  createdAt: Timestamp;
}

/** Whose a fact is: one conversation's, or every conversation's. */
export type FactScope = 'conversation' | 'global';

export type StepStatus = 'pending' | 'in_progress' | 'done' | 'skipped';

/** One line of a plan's checklist (chat.PlanStep). */
export interface PlanStep {
  title: string;
  status: StepStatus;
}

/** A task's plan as the model last wrote it with update_plan (chat.Plan); older revisions are kept. */
export interface Plan {
  taskId: string;
  conversationId: string;
  revision: number;
  steps: PlanStep[];
  note?: string;
  updatedAt: Timestamp;
}

/** A fact the agent was asked to remember (chat.Fact); the person can edit every one. */
export interface Fact {
  id: string;
  key: string;
  value: string;
  scope: FactScope;
  /** The owning conversation; '' for a global fact. */
  conversationId: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** How Errand talks to an MCP server: a command over stdio, or Streamable HTTP. */
export type MCPTransport = 'stdio' | 'http';

/** An MCP server the person configured (chat.MCPServer); its tools are named name__tool. */
export interface MCPServer {
  id: string;
  name: string;
  transport: MCPTransport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  enabled: boolean;
  /** The person's risk per tool (by the tool's name on the server). */
  toolRisks?: Record<string, Risk>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One of a server's tools (mcp.ToolInfo). */
export interface MCPToolInfo {
  name: string;
  /** server__tool, as the model sees it. */
  fullName: string;
  description: string;
  /** The risk in force, and the one the server's annotations declare. */
  risk: Risk;
  hintRisk: Risk;
  /** Why the tool is not offered to the model. */
  refused?: string;
}

export type MCPStatus = 'disabled' | 'starting' | 'ready' | 'failed';

/** A server with its status and tools (mcp.State); also the mcp:server event's payload. */
export interface MCPServerState {
  server: MCPServer;
  status: MCPStatus;
  /** Why it failed. */
  reason?: string;
  tools: MCPToolInfo[];
}

/** Health.Status: whether Errand can work, asked before anything else. */
export interface HealthStatus {
  /** False when Errand could not start; message says why. */
  ready: boolean;
  /** The database can be read but not written. */
  readOnly: boolean;
  message?: string;
  dataDir: string;
}

/** A conversation's workspace folder as the person sees it (app.WorkspaceInfo). */
export interface WorkspaceInfo {
  path: string;
  /** The conversation's own folder in Errand's data folder, not one the person chose. */
  default: boolean;
  /** A chosen folder that is no longer there. */
  missing: boolean;
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
  /** The conversation's tasks added up. */
  usage?: Usage;
  costUsd?: number;
  /** Only the latest messages are here, and earlier ones exist (OpenConversation). */
  hasOlder?: boolean;
}

/** One page of the conversation list, most recently active first. */
export interface ConversationPage {
  items: ConversationSummary[];
  /** Continues the list after the last item; '' when there is nothing more. */
  nextCursor: string;
}

/** A run of consecutive messages of one conversation, oldest first. */
export interface MessagePage {
  messages: Message[];
  /** Messages exist before the first of this page. */
  hasOlder: boolean;
  /** Messages exist after the last of this page. */
  hasNewer: boolean;
}

export interface ModelInfo {
  model: string;
  baseUrl: string;
  /** The built-in offline demo model answers. */
  demo: boolean;
  /** Where the choice comes from: 'environment', 'settings' or 'demo' (older data may lack it). */
  source?: ModelSource | string;
  /** The provider preset's id. */
  preset?: string;
}

export type ModelSource = 'environment' | 'settings' | 'demo';

// ---- Providers ----

/** Provider preset ids, in the order Go lists them. */
export type PresetId = 'openai' | 'anthropic' | 'ollama' | 'lmstudio' | 'openrouter' | 'custom' | 'demo';

/** A kind of model server (providers.Preset). */
export interface ProviderPreset {
  id: PresetId | string;
  name: string;
  /** '' for Custom and the demo. */
  baseUrl: string;
  needsKey: boolean;
  /** Runs on this computer (Ollama, LM Studio); Detect() finds it on its usual port. */
  local: boolean;
  /** A sensible first model. */
  model?: string;
}

/** The provider as stored in the settings (chat.ProviderConfig). */
export interface ProviderConfig {
  /** '' until something was configured. */
  preset: string;
  baseUrl: string;
  model: string;
}

/** GetProvider: the stored provider. The key never leaves Go: only whether there is one. */
export interface ProviderView extends ProviderConfig {
  hasKey: boolean;
  /** Presets with a stored key (the key itself never reaches the page). */
  keysFor?: string[];
  /** Where keys are kept. */
  keyStorage: 'keyring' | 'file' | string;
  /** A sentence about where keys are kept (says so when it is a file). */
  keyNote: string;
  /** OPENAI_BASE_URL / OPENAI_API_KEY are set and override these settings. */
  envOverride: boolean;
}

/**
 * A provider to test, list the models of, or save. With keepKey the stored
 * key is used (apiKey is ignored); without it apiKey is the key, and saving
 * an empty one removes the stored key.
 */
export interface ProviderInput {
  preset: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  keepKey: boolean;
}

export type VerdictKind = 'ok' | 'wrong_key' | 'unreachable' | 'model_not_found' | 'not_compatible' | 'invalid';

/** TestConnection's answer. */
export interface Verdict {
  ok: boolean;
  kind: VerdictKind | string;
  message: string;
  modelCount: number;
  models?: string[];
}

/** Error codes the Go side rejects with. */
export type ErrorCode = 'invalid' | 'not_found' | 'conflict' | 'internal' | 'model';

/** What a bound method's promise rejects with (app.FrontendError), as JSON text. */
export interface FrontendError {
  code: ErrorCode | string;
  message: string;
  /** For an internal or storage error, what went wrong underneath (no secrets), for "Copy details". */
  details?: string;
}

// ---- Event payloads (runtime.EventsOn) ----

/** agent:factsChanged: the facts of a conversation ('' for the global ones) changed. */
export interface FactsChangedEvent {
  conversationId: string;
}

export interface TaskMessageEvent {
  conversationId: string;
  taskId: string;
  message: Message;
}

/** A running command's output as it arrives (agent.ToolOutput): shown live, never stored. */
export interface ToolOutputEvent {
  conversationId: string;
  taskId: string;
  callId: string;
  text: string;
}

export interface MessageDeltaEvent {
  conversationId: string;
  taskId: string;
  messageId: string;
  /** Length in UTF-8 BYTES of the message content (with reasoning set: of its reasoning) before this delta. */
  offset: number;
  text: string;
  /** The text is thinking: it appends to the message's reasoning, not its content. */
  reasoning?: boolean;
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

/** The task waits for the person: an answer, an approval, a decision to go on, or a resume. */
export function needsPerson(status: TaskStatus | undefined): boolean {
  return status === 'waiting_user' || status === 'waiting_approval' || status === 'paused' || status === 'interrupted';
}

/** One field of a form question (ask_user's fields). */
export type FieldType = 'text' | 'textarea' | 'number' | 'date' | 'email' | 'url' | 'select' | 'boolean' | 'rating';

export interface FormField {
  name: string;
  label: string;
  type: FieldType;
  options?: string[];
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
}

/** The composer's state an agent asks for. */
export interface InputHint {
  disabled?: boolean;
  placeholder?: string;
}

export type ChatMode = 'reactive' | 'proactive';

/** A named agent: built in, or the person's own. */
export interface AgentDefinition {
  id: string;
  name: string;
  description: string;
  color: string;
  instructions: string;
  /** Every built-in tool; otherwise only tools. */
  allTools: boolean;
  tools: string[];
  model: string;
  /** 0 in a field means the settings' limit. */
  limits: Limits;
  mode: ChatMode;
  canUserType: boolean;
  allowEarlyTermination: boolean;
  /** What a proactive agent does first. */
  opening: string;
  builtIn: boolean;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
