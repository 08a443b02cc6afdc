// What the user can do. Each action calls Go through src/api, folds the
// result into the stores and reports failures as readable alerts. Actions
// that the UI waits on resolve to true on success and never reject.
import * as api from '../api';
import { prefetchLazyViews } from '../components/LazyView';
import { taskCard } from '../features/tasks/taskCard';
import { keepFirstScreen } from '../features/start/keepFirstScreen';
import { plainMarkdown, preloadMarkdown } from '../components/Markdown';
import { agentSwitched, loadAgents, useAgentsStore } from './agents';
import type { ConversationMode, FirstScreen, HealthStatus, Task } from '../api/types';
import { isTerminal } from '../api/types';
import { useAppStore } from './app';
import { askConfirm } from './confirm';
import { loadFirstConversations, showFirstConversations } from './conversationList';
import { useConversationsStore } from './conversations';
import { useDraftsStore } from './drafts';
import { clearSentFiles } from './attachmentActions';
import { useMessagesStore } from './messages';
import { useTasksStore } from './tasks';
import { stoppedAt } from './tasksReducer';
import { reportError, reportInfo } from './notices';
import { applyTask, forgetConversation, holdStopping, loadConversation, releaseStoppingAfterPaint, showLoaded, startSync } from './sync';
import { useWorkspacesStore } from './workspaces';
import { afterPaint } from '../lib/frames';
import { markStart, startTimings } from '../lib/startTimings';

/** Opens a conversation: selects it, clears its unread count and loads it. */
export function selectConversation(id: string): Promise<void> {
  useConversationsStore.getState().select(id);
  return loadConversation(id);
}

/**
 * A listed conversation nothing was ever said in (no task ever titled it),
 * the open one first: a new conversation reuses it rather than storing
 * another empty one.
 */
/** Conversations whose first message is on its way to Go: not empty any more. */
const sending = new Set<string>();

function emptyConversation(): string | undefined {
  const s = useConversationsStore.getState();
  const tasks = useTasksStore.getState();
  const isEmpty = (id: string) => {
    const c = s.byId[id];
    return !!c && c.title === '' && !c.titleSet && !tasks.activeByConversation[id] && !sending.has(id);
  };
  if (s.selectedId && isEmpty(s.selectedId)) return s.selectedId;
  return s.order.find(isEmpty);
}

export async function createConversation(): Promise<boolean> {
  const empty = emptyConversation();
  if (empty) {
    if (useConversationsStore.getState().selectedId !== empty) await selectConversation(empty);
    return true;
  }
  try {
    const before = useConversationsStore.getState().selectedId;
    const c = await api.createConversation();
    useConversationsStore.getState().upsert(c);
    // Opened only if the person did not open another one meanwhile: the last click wins.
    if (useConversationsStore.getState().selectedId === before) await selectConversation(c.id);
    return true;
  } catch (err) {
    reportError(err, 'Could not create a conversation');
    return false;
  }
}

let initInFlight: Promise<void> | null = null;

/**
 * Startup (and Try again): the health, the model, the agents, the
 * conversation list; opens the newest conversation or creates one. What
 * the first screen brought (first) is shown as it is; each part it lacks
 * is asked for alone. Concurrent calls (React StrictMode) share one run.
 */
export function initApp(first: FirstScreen | null = null): Promise<void> {
  if (!initInFlight) {
    initInFlight = runInit(first).finally(() => {
      initInFlight = null;
    });
  }
  return initInFlight;
}

let started: Promise<void> | null = null;

/**
 * The start, once (main.tsx starts it before React's first render, App
 * joins it): the stores follow Go's events from now on, Go is asked for
 * the whole first screen in one call, and its answer goes into them.
 * Resolves once the stores hold the first screen — with the Markdown
 * parser, when there is a history to show replies of.
 */
export function startApp(): Promise<void> {
  if (!started) {
    startSync();
    started = readFirstScreen().then(async (first) => {
      // A history most likely shows replies: the parser loads while the
      // stores take the first screen, and the first render waits for it.
      // An empty start, or one whose open conversation holds only plain
      // prose (shown the same without the parser), renders at once (the
      // parser loads once it is painted).
      const parser = first?.conversations?.items.length && !(first.open && plainTexts(first.open)) ? loadMarkdownParser() : null;
      // A conversation that waits on the person (or whose task ended short)
      // shows its card in the first paint: the cards' code comes first.
      const cards = cardOnFirstScreen(first) ? prefetchLazyViews().catch(() => undefined) : null;
      await initApp(first);
      await parser;
      await cards;
    });
  }
  return started;
}

/**
 * Whether the first screen's open conversation shows a task's card: the
 * one above the composer (taskCard), or the question the agent waits on
 * in the transcript.
 */
export function cardOnFirstScreen(first: FirstScreen | null | undefined): boolean {
  const open = first?.open;
  if (!open) return false;
  const active = open.activeTask ?? undefined;
  return active?.status === 'waiting_user' || taskCard(active, open.tasks.at(-1)) !== null;
}

/**
 * Whether every text in a value (a conversation's view: its messages, their
 * tool calls' arguments, its tasks) renders without the Markdown parser.
 * A string of one word is a name, an id or a time unless it holds Markdown
 * syntax; JSON in a string (a tool call's arguments) is looked into.
 */
export function plainTexts(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(plainTexts);
  if (value && typeof value === 'object') return Object.values(value).every(plainTexts);
  if (typeof value !== 'string') return true;
  if (value.startsWith('{') || value.startsWith('[')) {
    try {
      return plainTexts(JSON.parse(value));
    } catch {
      return false;
    }
  }
  return /\s/.test(value) ? plainMarkdown(value) : plainWord(value);
}

/** One word with no Markdown in it: no emphasis, code, link, HTML, entity or escape, and no list item or heading of its own. */
function plainWord(word: string): boolean {
  return !/[*`~[\]<>&\\|@]|:\/\/|www\.|^_|_$|^#|^\d+[.)]$|^[-+=]+$/i.test(word);
}

/** For tests: the next startApp starts again. */
export function resetStart(): void {
  started = null;
  announced = false;
}

/** The first screen, or null if the call failed: its parts are then asked for alone, and say why they fail. */
async function readFirstScreen(): Promise<FirstScreen | null> {
  try {
    return await api.firstScreen();
  } catch {
    return null;
  }
}

let announced = false;

/**
 * Once the first screen is painted: Go hears it (with the start's timings)
 * and starts what it does not need, and the window starts keeping its first
 * screen's copy.
 */
export function announceFirstScreen(): void {
  if (announced) return;
  announced = true;
  afterPaint(() => {
    markStart('painted');
    void Promise.resolve()
      .then(() => api.windowReady(startTimings()))
      .catch((err: unknown) => console.warn('Errand: could not say the window is ready', err));
    // The first reply, and the first use of a view marked prefetch, then wait for nothing.
    void loadMarkdownParser();
    void prefetchLazyViews().catch((err: unknown) => console.warn('Errand: could not load a view', err));
    // From now on the window keeps a copy of its first screen for the next start.
    const root = globalThis.document?.getElementById('root');
    if (root) keepFirstScreen(root);
  });
}

/** Whether the transcript shows thinking blocks; they do until the settings say otherwise. */
function loadShowThinking(): void {
  void Promise.resolve()
    .then(() => api.getSettings())
    .then(
      (s) => useAppStore.getState().setShowThinking(s.showThinking !== false),
      (err) => reportError(err, 'Could not read the settings'),
    );
}

function loadModelInfo(): Promise<void> {
  return api.modelInfo().then(
    (mi) => useAppStore.getState().setModelInfo(mi),
    (err) => reportError(err, 'Could not read the model settings'),
  );
}

/** Whether Errand can work, as Go said it; true when it could not say. */
function showHealth(health: HealthStatus | null | undefined): boolean {
  useAppStore.getState().setHealth(health ?? null);
  return !health || health.ready !== false;
}

/**
 * Health.Status comes first: when Errand could not start (its data cannot
 * be opened, another Errand uses it) nothing else is bound, so nothing else
 * is asked. If the call itself fails, startup goes on and reports what fails.
 */
async function checkHealth(): Promise<boolean> {
  try {
    return showHealth(await Promise.resolve().then(() => api.healthStatus()));
  } catch {
    return true;
  }
}

/** The side parts of the screen: from the first screen, or asked for. */
function showSides(first: FirstScreen | null): Promise<unknown> {
  const app = useAppStore.getState();
  if (first?.showThinking !== undefined) app.setShowThinking(first.showThinking);
  else loadShowThinking();
  if (first?.agents) useAgentsStore.getState().set(first.agents);
  if (first?.modelInfo) app.setModelInfo(first.modelInfo);
  return Promise.all([first?.agents ? null : loadAgents(), first?.modelInfo ? null : loadModelInfo()]);
}

/** Opens the newest conversation, or a new one when there is none. */
async function openFirst(): Promise<void> {
  const first = useConversationsStore.getState().order[0];
  if (first) {
    // An existing conversation most likely shows replies: the Markdown
    // parser loads while its messages are read.
    void loadMarkdownParser();
    await selectConversation(first);
  } else await createConversation();
}

async function runInit(first: FirstScreen | null): Promise<void> {
  useAppStore.getState().setStartup('loading');
  if (!(first ? showHealth(first.status) : await checkHealth())) {
    useAppStore.getState().setStartup('unavailable');
    return;
  }
  markStart('health');
  const sides = showSides(first);
  try {
    if (first?.conversations) showFirstConversations(first.conversations);
    else await loadFirstConversations();
    markStart('list');
    useAppStore.getState().setStartup('ready');
    if (first?.open) {
      showLoaded(first.open);
      if (first.workspace) useWorkspacesStore.getState().remember(first.open.conversation.id, first.open.conversation.workspace, first.workspace);
      useConversationsStore.getState().select(first.open.conversation.id);
    } else await openFirst();
    markStart('conversation');
  } catch (err) {
    useAppStore.getState().setStartup('failed');
    reportError(err, 'Could not list conversations');
  }
  await sides;
}

/** Loads the Markdown parser now (once; a failure is retried when a reply shows). */
function loadMarkdownParser(): Promise<void> {
  return preloadMarkdown().catch((err: unknown) => console.warn('Errand: could not load the Markdown parser', err));
}

/** The attachment ids argument of a send: none at all when no file goes with it. */
function withFiles(ids: string[]): [] | [string[]] {
  return ids.length > 0 ? [ids] : [];
}

/** A message went: the composer's text and files are cleared, and the view goes to the latest. */
function sent(conversationId: string) {
  useDraftsStore.getState().setDraft(conversationId, '');
  clearSentFiles(conversationId);
  useMessagesStore.getState().askLatest(conversationId);
}

/**
 * Sends the composer's text; Go answers it in the conversation's mode (in
 * Auto it decides between a task and a direct answer; /task and /chat
 * force one). Files the composer accepted go with it by id. The draft and
 * the files are cleared only on success.
 */
export async function sendMessage(conversationId: string, text: string, attachmentIds: string[] = []): Promise<boolean> {
  const body = text.trim();
  if (!body && attachmentIds.length === 0) return false;
  sending.add(conversationId);
  try {
    await agentSwitched(conversationId);
    const task = await api.send(conversationId, body, ...withFiles(attachmentIds));
    if (task) applyTask(task, 'snapshot');
    sent(conversationId);
    return true;
  } catch (err) {
    reportError(err, 'Could not send the message');
    return false;
  } finally {
    sending.delete(conversationId);
  }
}

/**
 * Adds a message while the conversation's task works, without stopping it:
 * it shows as Queued until the task's next step gives it to the model.
 */
export async function queueMessage(conversationId: string, text: string, attachmentIds: string[] = []): Promise<boolean> {
  const body = text.trim();
  if (!body && attachmentIds.length === 0) return false;
  try {
    const m = await api.queueMessage(conversationId, body, ...withFiles(attachmentIds));
    if (m) useMessagesStore.getState().upsert(m);
    sent(conversationId);
    return true;
  } catch (err) {
    reportError(err, 'Could not add the message');
    return false;
  }
}

/** Delivers a queued message now (see api.sendNow); the task's events show the rest. */
export async function sendQueuedNow(conversationId: string, messageId: string): Promise<boolean> {
  try {
    await api.sendNow(conversationId, messageId);
    return true;
  } catch (err) {
    reportError(err, 'Could not send the message now');
    return false;
  }
}

/**
 * Stops a task. The window shows it stopped at once, in the click's frame:
 * its reply stops growing (see holdStopping) and it reads Stopped, without
 * waiting for Go's answer. Go's copy of the task then replaces the window's
 * (an already ended task shows how it ended); if the call fails, the task
 * comes back as it was.
 *
 * That frame renders what the person waits for alone: the status line, the
 * composer and the reply. What else a working task marks (the sidebar's
 * working dot, the buttons it disables: the agent picker, Compact now, the
 * decision's rerun, the message tools: useTaskAtWorkLater) reads it
 * through useDeferredValue, and shows it a frame later.
 */
export async function stopTask(taskId: string): Promise<boolean> {
  holdStopping(taskId);
  const before = showStopped(taskId);
  try {
    const res = await api.stopTask(taskId);
    // Go's state after the stop, final: it replaces the window's own copy.
    if (res?.task) applyTask(res.task, 'event');
    if (res && !res.stopped) reportInfo(res.message || 'The task had already ended.');
    return true;
  } catch (err) {
    if (before) {
      useTasksStore.getState().allowRevive(taskId);
      applyTask(before, 'event');
    }
    reportError(err, 'Could not stop the task');
    return false;
  } finally {
    releaseStoppingAfterPaint(taskId);
  }
}

/** Shows an active task stopped; the task as it was (undefined if it had ended). */
function showStopped(taskId: string): Task | undefined {
  const task = useTasksStore.getState().byId[taskId];
  if (!task || isTerminal(task.status)) return undefined;
  applyTask(stoppedAt(task, Date.now()), 'event');
  return task;
}

/** Stop asks the person first while the task waits for their answer or approval. */
export function stopAsksFirst(task: Task): boolean {
  return task.status === 'waiting_user' || task.status === 'waiting_approval';
}

/**
 * Stops a task, asking first when it waits for the person (a question or
 * an approval): a stray Esc or click must not throw away the task, nor
 * what they were typing (the draft stays). False if they kept it.
 */
export async function stopTaskConfirmed(task: Task): Promise<boolean> {
  if (stopAsksFirst(task)) {
    const ok = await askConfirm({
      title: 'Stop this task?',
      text:
        task.status === 'waiting_user'
          ? 'The agent is waiting for your answer. Stopping ends the task; anything you typed stays in the message box.'
          : 'The agent is waiting for your approval. Stopping ends the task without running the tool.',
      confirmLabel: 'Stop task',
      cancelLabel: 'Keep waiting',
    });
    if (!ok) return false;
  }
  return stopTask(task.id);
}

export async function replyToTask(conversationId: string, taskId: string, answer: string): Promise<boolean> {
  const body = answer.trim();
  if (!body) return false;
  try {
    await api.userResponse(taskId, body);
    useDraftsStore.getState().setDraft(conversationId, '');
    return true;
  } catch (err) {
    reportError(err, 'Could not send your answer');
    return false;
  }
}

export async function renameConversation(id: string, title: string): Promise<boolean> {
  const t = title.trim();
  const prev = useConversationsStore.getState().byId[id];
  if (!t || !prev || t === prev.title) return false;
  try {
    const c = await api.renameConversation(id, t);
    useConversationsStore.getState().upsert(c);
    return true;
  } catch (err) {
    reportError(err, 'Could not rename the conversation');
    return false;
  }
}

export async function setMode(id: string, mode: ConversationMode): Promise<boolean> {
  const store = useConversationsStore.getState();
  const prev = store.byId[id];
  if (!prev) return false;
  store.patch(id, { mode });
  try {
    const c = await api.setMode(id, mode);
    useConversationsStore.getState().upsert(c);
    return true;
  } catch (err) {
    useConversationsStore.getState().patch(id, { mode: prev.mode });
    reportError(err, 'Could not change the mode');
    return false;
  }
}

export async function deleteConversation(id: string): Promise<boolean> {
  try {
    await api.deleteConversation(id);
  } catch (err) {
    reportError(err, 'Could not delete the conversation');
    return false;
  }
  const wasSelected = useConversationsStore.getState().selectedId === id;
  forgetConversation(id);
  if (wasSelected) {
    const next = useConversationsStore.getState().order[0];
    if (next) await selectConversation(next);
    else await createConversation();
  }
  return true;
}
