// The only module that talks to the generated Wails bindings. Everything
// else imports from here and gets typed results and ApiError rejections.
import * as AboutSvc from '../../wailsjs/go/app/About';
import * as AgentsSvc from '../../wailsjs/go/app/Agents';
import * as Runner from '../../wailsjs/go/app/AgentTaskRunner';
import * as AttachmentsSvc from '../../wailsjs/go/app/Attachments';
import * as ArchiveSvc from '../../wailsjs/go/app/Archive';
import * as CheckpointsSvc from '../../wailsjs/go/app/Checkpoints';
import * as Convs from '../../wailsjs/go/app/Conversations';
import * as HealthSvc from '../../wailsjs/go/app/Health';
import * as MCPSvc from '../../wailsjs/go/app/MCP';
import * as MemorySvc from '../../wailsjs/go/app/Memory';
import * as PromptsSvc from '../../wailsjs/go/app/Prompts';
import * as ProvidersSvc from '../../wailsjs/go/app/Providers';
import * as SettingsSvc from '../../wailsjs/go/app/Settings';
import * as WindowSvc from '../../wailsjs/go/app/Window';
import type { agent, app, chat } from '../../wailsjs/go/models';
import { ApiError, toApiError } from './errors';
import { CONVERSATION_PAGE, MESSAGE_PAGE } from './pageSizes';
import type {
  AboutInfo,
  AgentDefinition,
  AgentStats,
  Attachment,
  CheckpointStorage,
  FileChoice,
  FilesChanged,
  UndoOutcome,
  Conversation,
  ConversationMode,
  ConversationPage,
  ConversationSummary,
  ConversationView,
  AllFacts,
  Fact,
  FactScope,
  FirstScreen,
  HealthStatus,
  MCPServer,
  MCPServerState,
  Risk,
  MessagePage,
  Plan,
  ModelInfo,
  ProviderInput,
  ProviderPreset,
  ProviderView,
  SavedPrompt,
  SearchHit,
  Settings,
  Message,
  StopResult,
  Summary,
  Task,
  TaskMode,
  Variation,
  Verdict,
  WorkspaceInfo,
} from './types';

export { ApiError, toApiError } from './errors';
export type * from './types';
export { isBusy, isTerminal, needsPerson, RISKS, TERMINAL_STATUSES } from './types';

/** Go decodes the times, which it sets itself: what is new sends the zero time. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

function bridgeReady(): boolean {
  const w = globalThis as { go?: { app?: unknown } };
  return typeof w.go === 'object' && w.go !== null && w.go.app !== undefined;
}

/**
 * Calls a bound method. W is what Wails generated from Go's types; T may
 * narrow it (types.ts narrows a string field to the values of Go's
 * constants): the one place the frontend takes Go at its word on those.
 */
async function call<W, T extends W = W>(fn: () => Promise<W>): Promise<T> {
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

/** A bound method's list: Go encodes an empty (nil) slice as null. */
async function list<W, T extends W = W>(fn: () => Promise<W[]>): Promise<T[]> {
  return (await call<W[] | null, T[] | null>(fn)) ?? [];
}

// ---- AgentTaskRunner ----

/**
 * Runs the task that wrote a reply again (replyId '' for the branch's last): a new version of the reply.
 * mode '' keeps the task's mode; 'agent' or 'chat' runs the prompt as a task or as a chat reply.
 */
export function regenerate(conversationId: string, mode: '' | 'agent' | 'chat' = '', replyId = ''): Promise<Task> {
  return call(() => Runner.Regenerate(conversationId, replyId, mode));
}

/** Sends text in place of the person's message: a new branch from there, the old one kept as a version. */
export function editMessage(conversationId: string, messageId: string, text: string): Promise<Task> {
  return call(() => Runner.EditMessage(conversationId, messageId, text));
}

/** Summarises the conversation's older messages for the model now; resolves to the notice added. */
export function compactNow(conversationId: string): Promise<Message> {
  return call(() => Runner.CompactNow(conversationId));
}

/** The summary a notice "Earlier messages summarised" names. */
export function getSummary(summaryId: string): Promise<Summary> {
  return call(() => Runner.GetSummary(summaryId));
}

/** Starts the conversation's proactive agent: it speaks first. */
export function startProactive(conversationId: string): Promise<Task> {
  return call(() => Runner.StartProactive(conversationId));
}

/**
 * Answers the person's message in the conversation's mode (Auto decides);
 * a leading /task or /chat forces one.
 */
export function send(conversationId: string, text: string, attachmentIds: string[] = []): Promise<Task> {
  return call(() => Runner.Send(conversationId, text, attachmentIds));
}

/** Answers the person's message again the other way: 'agent' runs it as a task, 'chat' just answers. */
export function rerunMessage(conversationId: string, messageId: string, mode: TaskMode): Promise<Task> {
  return call(() => Runner.RerunMessage(conversationId, messageId, mode));
}

/** Adds a message to the conversation's working task: queued for its next step. */
export function queueMessage(conversationId: string, text: string, attachmentIds: string[] = []): Promise<Message> {
  return call(() => Runner.QueueMessage(conversationId, text, attachmentIds));
}

/** Delivers a queued message at once: a tool call waiting for approval is denied for it, a paused task goes on with it. */
export function sendNow(conversationId: string, messageId: string): Promise<void> {
  return call(() => Runner.SendNow(conversationId, messageId));
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

/** Lets the tool call waiting for approval run; forTask approves that tool for the rest of the task. */
export function approveTool(taskId: string, callId: string, forTask: boolean): Promise<void> {
  return call(() => Runner.ApproveTool(taskId, callId, forTask));
}

/** Refuses the tool call waiting for approval; the reason (may be '') goes to the model. */
export function denyTool(taskId: string, callId: string, reason: string): Promise<void> {
  return call(() => Runner.DenyTool(taskId, callId, reason));
}

/** Lets a paused task go on, raising the limit it reached. */
export function continueTask(taskId: string): Promise<void> {
  return call(() => Runner.ContinueTask(taskId));
}

/** Resumes a failed task from its last completed step. */
export function retryTask(taskId: string): Promise<Task> {
  return call(() => Runner.RetryTask(taskId));
}

/** Continues a task interrupted when Errand closed. */
export function resumeTask(taskId: string): Promise<Task> {
  return call(() => Runner.ResumeTask(taskId));
}

/** Ends a task interrupted when Errand closed. */
export function dismissTask(taskId: string): Promise<Task> {
  return call(() => Runner.DismissTask(taskId));
}

// ---- Conversations ----

export function createConversation(): Promise<Conversation> {
  return call(() => Convs.CreateConversation());
}

export async function listConversations(): Promise<ConversationSummary[]> {
  return list(() => Convs.ListConversations());
}

/**
 * Opens a conversation as the window shows it: its latest messages
 * (hasOlder tells whether earlier ones exist), the tasks they need and the
 * whole usage, read together.
 */
export async function loadConversation(id: string, limit = MESSAGE_PAGE): Promise<ConversationView> {
  // Go encodes empty slices as null.
  return viewOf(await call(() => Convs.OpenConversation(id, limit)));
}

/**
 * One page of the conversation list whose titles contain query ('' for all), after cursor ('' for the top),
 * of one agent's conversations (agent '' for all).
 */
export async function listConversationsPage(
  query: string,
  cursor: string,
  limit = CONVERSATION_PAGE,
  agent = '',
  archived = false,
): Promise<ConversationPage> {
  const page = await call<chat.ConversationPage | null, ConversationPage | null>(() =>
    Convs.ListConversationsPage(query, cursor, limit, agent, archived),
  );
  return { items: page?.items ?? [], nextCursor: page?.nextCursor ?? '' };
}

/** A page of messages; Go encodes an empty page's messages as null. */
async function messagePage(fn: () => Promise<chat.MessagePage>): Promise<MessagePage> {
  const page = await call<chat.MessagePage | null, MessagePage | null>(fn);
  return { messages: page?.messages ?? [], hasOlder: !!page?.hasOlder, hasNewer: !!page?.hasNewer };
}

/** The messages just before beforeMessageId ('' for the latest). */
export async function getMessagesPage(conversationId: string, beforeMessageId: string, limit = MESSAGE_PAGE): Promise<MessagePage> {
  return messagePage(() => Convs.GetMessagesPage(conversationId, beforeMessageId, limit));
}

/** The messages just after afterMessageId ('' for the first). */
export async function getMessagesAfter(conversationId: string, afterMessageId: string, limit = MESSAGE_PAGE): Promise<MessagePage> {
  return messagePage(() => Convs.GetMessagesAfter(conversationId, afterMessageId, limit));
}

/** About limit messages around messageId, that message included. */
export async function getMessagesAround(conversationId: string, messageId: string, limit = MESSAGE_PAGE): Promise<MessagePage> {
  return messagePage(() => Convs.GetMessagesAround(conversationId, messageId, limit));
}

function viewOf(view: ConversationView): ConversationView {
  return { ...view, messages: view.messages ?? [], tasks: view.tasks ?? [] };
}

/** Shows the previous (-1) or next (1) version of a message; resolves to the conversation on that branch. */
export async function showVersion(conversationId: string, messageId: string, step: -1 | 1, limit = MESSAGE_PAGE): Promise<ConversationView> {
  return viewOf(await call(() => Convs.ShowVersion(conversationId, messageId, step, limit)));
}

/** Makes the branch through a message current ("Keep this one"); resolves to the conversation on it. */
export async function switchBranch(conversationId: string, messageId: string, limit = MESSAGE_PAGE): Promise<ConversationView> {
  return viewOf(await call(() => Convs.SwitchBranch(conversationId, messageId, limit)));
}

/**
 * count (1–5) more replies in place of a reply, one per model ('' for the conversation's), each taking its own
 * approach, kept off the branch; each one's text comes as it is written (events.onVariation).
 */
export async function variations(conversationId: string, messageId: string, count: number, models: string[]): Promise<Variation[]> {
  return list<agent.Variation, Variation>(() => Convs.Variations(conversationId, messageId, { count, models }));
}

/** Stops the variations being written in the conversation, keeping what each had written. */
export function stopVariations(conversationId: string): Promise<boolean> {
  return call(() => Convs.StopVariations(conversationId));
}

/** Deletes a version of a message and all after it; resolves to the conversation as it is then. */
export async function deleteBranch(conversationId: string, messageId: string, limit = MESSAGE_PAGE): Promise<ConversationView> {
  return viewOf(await call(() => Convs.DeleteBranch(conversationId, messageId, limit)));
}

/** Copies the history up to a message into a new conversation; its workspace folder shared or copied. */
export function branchIntoConversation(conversationId: string, messageId: string, copyWorkspace: boolean): Promise<Conversation> {
  return call(() => Convs.BranchIntoConversation(conversationId, messageId, copyWorkspace));
}

/** Finds the newest messages holding every word of query, across every conversation (taken literally). */
export async function searchMessages(query: string, limit = 20): Promise<SearchHit[]> {
  return list(() => Convs.SearchMessages(query, limit));
}

export function renameConversation(id: string, title: string): Promise<Conversation> {
  return call(() => Convs.RenameConversation(id, title));
}

/** Chooses the conversation's agent (between tasks). */
export function setAgent(id: string, agentId: string): Promise<Conversation> {
  return call(() => Convs.SetAgent(id, agentId));
}

/** Remembers the conversation's mode: auto, agent or chat. */
export function setMode(id: string, mode: ConversationMode): Promise<Conversation> {
  return call(() => Convs.SetMode(id, mode));
}

/** Ends the conversation at the person's word (its task stopped), with their reason ('' for none; at most 1 KB). */
export function endConversation(id: string, reason: string): Promise<Conversation> {
  return call(() => Convs.EndConversation(id, reason));
}

/** Moves the conversation to Archived; stopTask: the person confirmed stopping its unfinished task first. */
export function archiveConversation(id: string, stopTask = false): Promise<Conversation> {
  return call(() => Convs.ArchiveConversation(id, stopTask));
}

/** Brings an archived conversation back to the list. */
export function restoreConversation(id: string): Promise<Conversation> {
  return call(() => Convs.RestoreConversation(id));
}

/** Each agent's conversations, completed tasks and last use. */
export async function agentStats(): Promise<AgentStats[]> {
  return (await call(() => AgentsSvc.AgentStats())) ?? [];
}

export function deleteConversation(id: string): Promise<void> {
  return call(() => Convs.DeleteConversation(id));
}

export function modelInfo(): Promise<ModelInfo> {
  return call(() => Convs.ModelInfo());
}

/** The model that answers in a conversation (its own choice, or the default). */
export function conversationModel(id: string): Promise<ModelInfo> {
  return call(() => Convs.ConversationModel(id));
}

/** Chooses the conversation's model; '' returns to the default one. */
export function setModel(id: string, model: string): Promise<Conversation> {
  return call(() => Convs.SetModel(id, model));
}

/** The folder the conversation's tools work in (its own, or the default one). */
export function workspaceDir(id: string): Promise<string> {
  return call(() => Convs.WorkspaceDir(id));
}

/** The conversation's workspace folder, and whether a chosen one went missing. */
export function workspace(id: string): Promise<WorkspaceInfo> {
  return call(() => Convs.Workspace(id));
}

/** Shows the conversation's workspace folder in the file manager. */
export function openWorkspaceFolder(id: string): Promise<void> {
  return call(() => Convs.OpenWorkspaceFolder(id));
}

/** Makes dir the conversation's workspace folder; '' returns to the default one. */
export function setWorkspace(id: string, dir: string): Promise<Conversation> {
  return call(() => Convs.SetWorkspace(id, dir));
}

/** Asks for a folder with the native picker; cancelling returns the conversation unchanged. */
export function chooseWorkspace(id: string): Promise<Conversation> {
  return call(() => Convs.ChooseWorkspace(id));
}

// ---- Settings ----

export async function getSettings(): Promise<Settings> {
  return normalizeSettings(await call(() => SettingsSvc.GetSettings()));
}

/** Validates (in Go) and stores the settings; resolves with what was stored. */
export async function saveSettings(settings: Settings): Promise<Settings> {
  return normalizeSettings(await call(() => SettingsSvc.SaveSettings(settings)));
}

function normalizeSettings(s: Settings): Settings {
  // Go encodes nil maps as null.
  return {
    ...s,
    autoApprove: s.autoApprove ?? {},
    prices: s.prices ?? {},
    ...('contextLengths' in s ? { contextLengths: s.contextLengths ?? {} } : {}),
  };
}

/** The built-in agent instructions (what an empty systemPrompt means). */
export function defaultSystemPrompt(): Promise<string> {
  return call(() => SettingsSvc.DefaultSystemPrompt());
}

// ---- About ----

/** Settings → About: the version, the data folder, the log file, the schema. */
export function aboutInfo(): Promise<AboutInfo> {
  return call(() => AboutSvc.Info());
}

/** The text "Copy diagnostics" copies: version, OS, provider kind and model (never a key). */
export function diagnostics(): Promise<string> {
  return call(() => AboutSvc.Diagnostics());
}

/** Shows the data folder in the system's file manager. */
export function openDataFolder(): Promise<void> {
  return call(() => AboutSvc.OpenDataFolder());
}

// ---- Checkpoints ----

/** The files a finished task changed (an empty list when none). */
export async function filesChanged(taskId: string): Promise<FilesChanged> {
  const c: FilesChanged = await call(() => CheckpointsSvc.FilesChanged(taskId));
  return { ...c, files: c.files ?? [], notUndoable: c.notUndoable ?? [] };
}

/** Hides the task's Files changed card for good (its files stay as they are). */
export function dismissChanges(taskId: string): Promise<void> {
  return call(() => CheckpointsSvc.DismissChanges(taskId));
}

/** The diff of what the task did to one file. */
export function fileDiff(taskId: string, path: string): Promise<string> {
  return call(() => CheckpointsSvc.FileDiff(taskId, path));
}

/** Restores the files as they were before the task; conflicts without a choice change nothing and come back. */
export function undoChanges(taskId: string, choices: Record<string, FileChoice> = {}): Promise<UndoOutcome> {
  return call(() => CheckpointsSvc.UndoChanges(taskId, choices));
}

/** Puts the task's changes back after an undo, with the same conflict rules. */
export function redoChanges(taskId: string, choices: Record<string, FileChoice> = {}): Promise<UndoOutcome> {
  return call(() => CheckpointsSvc.RedoChanges(taskId, choices));
}

/** The space checkpoints take on disk, and their limit. */
export function checkpointStorage(): Promise<CheckpointStorage> {
  return call(() => CheckpointsSvc.Storage());
}

// ---- Memory ----

/** What the person types for a fact; conversationId is needed for scope 'conversation'. */
export interface FactInput {
  key: string;
  value: string;
  scope: FactScope;
  conversationId: string;
}

/** The global facts and, for a conversation id, that conversation's (first). */
export async function listFacts(conversationId: string): Promise<Fact[]> {
  return list(() => MemorySvc.ListFacts(conversationId));
}

/** Stores a new fact; Go refuses bad input, a key already there and secret-looking values. */
export function addFact(input: FactInput): Promise<Fact> {
  return call(() => MemorySvc.AddFact({ ...input, id: '', createdAt: ZERO_TIME, updatedAt: ZERO_TIME }));
}

/** Changes a fact's key, value or scope, under the same rules. */
export function updateFact(id: string, input: FactInput): Promise<Fact> {
  return call(() => MemorySvc.UpdateFact({ ...input, id, createdAt: ZERO_TIME, updatedAt: ZERO_TIME }));
}

export function deleteFact(id: string): Promise<void> {
  return call(() => MemorySvc.DeleteFact(id));
}

/** Every fact — the global ones, then each conversation's — with those conversations' titles. */
export async function listAllFacts(): Promise<AllFacts> {
  const all = await call<AllFacts>(() => MemorySvc.ListAllFacts() as Promise<AllFacts>);
  return { facts: all.facts ?? [], titles: all.titles ?? {} };
}

// ---- Saved prompts ----

/** The saved prompts, by name. */
export async function listPrompts(): Promise<SavedPrompt[]> {
  return list(() => PromptsSvc.ListPrompts());
}

/** Saves text under name; Go refuses an empty or taken name (field 'name') and an empty text (field 'text'). */
export function createPrompt(name: string, text: string): Promise<SavedPrompt> {
  return call(() => PromptsSvc.CreatePrompt(name, text));
}

/** Renames a prompt or changes its text, under the same rules. */
export function updatePrompt(id: string, name: string, text: string): Promise<SavedPrompt> {
  return call(() => PromptsSvc.UpdatePrompt({ id, name, text, createdAt: ZERO_TIME, updatedAt: ZERO_TIME }));
}

export function deletePrompt(id: string): Promise<void> {
  return call(() => PromptsSvc.DeletePrompt(id));
}

// ---- MCP servers ----

/** What the person types for a server; id '' adds one. */
export type MCPServerInput = Pick<MCPServer, 'id' | 'name' | 'transport' | 'command' | 'args' | 'env' | 'url' | 'enabled'>;

export async function listMCPServers(): Promise<MCPServerState[]> {
  return list(() => MCPSvc.ListServers());
}

/** Adds (id '') or changes a server; Go refuses a bad name, command or address. */
export function saveMCPServer(input: MCPServerInput): Promise<MCPServerState> {
  return call(() => MCPSvc.SaveServer({ ...input, createdAt: ZERO_TIME, updatedAt: ZERO_TIME }));
}

export function removeMCPServer(id: string): Promise<void> {
  return call(() => MCPSvc.RemoveServer(id));
}

export function setMCPServerEnabled(id: string, enabled: boolean): Promise<MCPServerState> {
  return call(() => MCPSvc.SetEnabled(id, enabled));
}

export function restartMCPServer(id: string): Promise<MCPServerState> {
  return call(() => MCPSvc.RestartServer(id));
}

/** Overrides a tool's risk; '' goes back to what the server declares. */
export function setMCPToolRisk(id: string, tool: string, risk: Risk | ''): Promise<MCPServerState> {
  return call(() => MCPSvc.SetToolRisk(id, tool, risk));
}

/** Imports Claude Desktop's mcpServers: the JSON given, or (text '') its file at the usual place. */
export async function importClaudeConfig(text: string): Promise<MCPServerState[]> {
  return list(() => MCPSvc.ImportClaudeConfig(text));
}

export function claudeConfigPath(): Promise<string> {
  return call(() => MCPSvc.ClaudeConfigPath());
}

/** An image a tool returned, as a data: URL. */
export function toolImage(id: string): Promise<string> {
  return call(() => MCPSvc.Image(id));
}

// ---- Attachments ----

/** Checks and stores a file the window read (pasted, dropped or picked): its name and content in base64. */
export function addAttachment(name: string, dataBase64: string): Promise<Attachment> {
  return call(() => AttachmentsSvc.Add(name, dataBase64));
}

/** Checks and stores a file named by its path (dropped on the desktop window). */
export function addAttachmentPath(path: string): Promise<Attachment> {
  return call(() => AttachmentsSvc.AddPath(path));
}

/** A stored image, the original sent, as a data: URL. */
export function attachmentImage(id: string): Promise<string> {
  return call(() => AttachmentsSvc.Image(id));
}

/** Opens a stored attachment with the system's viewer, under the name it was sent with. */
export function openAttachment(id: string, name: string): Promise<void> {
  return call(() => AttachmentsSvc.Open(id, name));
}

// ---- Providers ----

/** The kinds of model server, in the order the settings show them. */
export async function providerPresets(): Promise<ProviderPreset[]> {
  return list(() => ProvidersSvc.Presets());
}

/** The local servers (Ollama, LM Studio) answering on their usual ports now. */
export async function detectProviders(): Promise<ProviderPreset[]> {
  return list(() => ProvidersSvc.Detect());
}

/** The stored provider; hasKey says whether a key is stored (the key itself never comes back). */
export function getProvider(): Promise<ProviderView> {
  return call(() => ProvidersSvc.GetProvider());
}

/** Stores the provider (the key in the keyring or the 0600 file); resolves with what is stored. */
export function saveProvider(input: ProviderInput): Promise<ProviderView> {
  return call(() => ProvidersSvc.SaveProvider(input));
}

/** Tries the provider as given, without saving it. A failed connection is a verdict, not a rejection. */
export function testConnection(input: ProviderInput): Promise<Verdict> {
  return call(() => ProvidersSvc.TestConnection(input));
}

/** The model ids of the provider as given, sorted. */
export async function listModels(input: ProviderInput): Promise<string[]> {
  return list(() => ProvidersSvc.ListModels(input));
}

/** The model ids of the provider in use (for the chat header's model menu). */
export async function currentModels(): Promise<string[]> {
  return list(() => ProvidersSvc.CurrentModels());
}

// ---- Health ----

/** Whether Errand can work. Asked first: when it is not ready, nothing else is bound. */
export function healthStatus(): Promise<HealthStatus> {
  return call(() => HealthSvc.Status());
}

/** The first screen the page asked for as it was parsed (vite.config.ts), once; undefined if it did not. */
function takeAskedFirstScreen(): Promise<app.FirstScreen> | undefined {
  const w = globalThis as { errandFirstScreen?: Promise<app.FirstScreen> };
  const asked = w.errandFirstScreen;
  delete w.errandFirstScreen;
  return asked;
}

/**
 * The window's first screen in one call: the status and, when Errand can
 * work, the list's first page and the newest conversation (or a new one),
 * with the model, the agents and whether thinking shows. Bound even when
 * Errand could not start (the status alone then).
 */
export async function firstScreen(): Promise<FirstScreen> {
  const first = await call<app.FirstScreen, FirstScreen>(
    () => takeAskedFirstScreen() ?? HealthSvc.FirstScreen(CONVERSATION_PAGE, MESSAGE_PAGE),
  );
  const page = first.conversations;
  return {
    ...first,
    agents: first.agents?.map(agentOf),
    conversations: page && { items: page.items ?? [], nextCursor: page.nextCursor ?? '' },
    open: first.open && viewOf(first.open),
  };
}

// ---- Archive ----

export type ExportFormat = 'markdown' | 'json';

/** Saves a conversation where the person chooses (a native dialog); resolves to the path, '' when cancelled. */
export function exportConversation(id: string, format: ExportFormat): Promise<string> {
  return call(() => ArchiveSvc.ExportConversation(id, format));
}

/** Imports an exported conversation the person chooses, as new; resolves to the conversations stored (none when cancelled). */
export async function importConversations(): Promise<Conversation[]> {
  return list(() => ArchiveSvc.ImportConversations());
}

/** Saves every conversation and the settings in one file; resolves to its path, '' when cancelled. */
export function exportBackup(): Promise<string> {
  return call(() => ArchiveSvc.ExportBackup());
}

/** Restores a backup into an empty folder, both chosen by the person; resolves to the folder, '' when cancelled. */
export function restoreBackup(): Promise<string> {
  return call(() => ArchiveSvc.RestoreBackup());
}

// ---- Window ----

/** Tells Go which conversation is on screen and whether the window has the focus (no notification about it then). */
export function setViewing(conversationId: string, focused: boolean): Promise<void> {
  return call(() => WindowSvc.SetViewing(conversationId, focused));
}

/**
 * Tells Go the first screen is painted: what it does not need (MCP servers, notifications) starts now.
 * timings are the start's steps (lib/startTimings), for the log.
 */
export function windowReady(timings: Record<string, number>): Promise<void> {
  return call(() => WindowSvc.Ready(timings));
}

/**
 * Keeps the window's first screen as painted (the markup inside #root) for
 * the next start, which shows it while its script loads when the first
 * screen is still the same (app/snapshot.go).
 */
export function saveFirstScreen(snapshot: app.FirstScreenSnapshot): Promise<void> {
  return call(() => WindowSvc.SaveFirstScreen(snapshot));
}

// ---- Agents ----

function agentOf(d: AgentDefinition): AgentDefinition {
  return { ...d, tools: d.tools ?? [] };
}

function agentIn(d: AgentDefinition): AgentDefinition {
  return { ...d, createdAt: d.createdAt || ZERO_TIME, updatedAt: d.updatedAt || ZERO_TIME };
}

/** The built-in agents, then the person's by name. */
export async function listAgents(): Promise<AgentDefinition[]> {
  return (await list<chat.AgentDefinition, AgentDefinition>(() => AgentsSvc.ListAgents())).map(agentOf);
}

/** The built-in tools an agent can be given. */
export async function agentToolNames(): Promise<string[]> {
  return list(() => AgentsSvc.ToolNames());
}

export async function createAgent(d: AgentDefinition): Promise<AgentDefinition> {
  return agentOf(await call(() => AgentsSvc.CreateAgent(agentIn(d))));
}

export async function updateAgent(d: AgentDefinition): Promise<AgentDefinition> {
  return agentOf(await call(() => AgentsSvc.UpdateAgent(agentIn(d))));
}

export function deleteAgent(id: string): Promise<void> {
  return call(() => AgentsSvc.DeleteAgent(id));
}

export async function duplicateAgent(id: string): Promise<AgentDefinition> {
  return agentOf(await call(() => AgentsSvc.DuplicateAgent(id)));
}

/** Writes the agent to a file the person picks; resolves to its path ('' when cancelled). */
export function exportAgentFile(id: string): Promise<string> {
  return call(() => AgentsSvc.ExportAgentFile(id));
}

/** Imports the agent file the person picks (a definition with id '' when cancelled). */
export async function importAgentFile(): Promise<AgentDefinition> {
  return agentOf(await call(() => AgentsSvc.ImportAgentFile()));
}

/** Imports an agent file's text. */
export async function importAgent(text: string): Promise<AgentDefinition> {
  return agentOf(await call(() => AgentsSvc.ImportAgent(text)));
}

/** Every revision of a task's plan, oldest first (Plan history). */
export function planHistory(taskId: string): Promise<Plan[]> {
  return call(() => Convs.PlanHistory(taskId));
}
