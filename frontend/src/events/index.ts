// The only module that talks to the Wails runtime. It turns the backend's
// events into typed callbacks.
import { BrowserOpenURL, EventsOn, OnFileDrop, OnFileDropOff, Quit } from '../../wailsjs/runtime/runtime';
import { EVENTS } from '../api/types';
import type {
  Conversation,
  EventName,
  FactsChangedEvent,
  FilesChanged,
  MCPServerState,
  MessageDeltaEvent,
  Task,
  TaskMessageEvent,
  ToolOutputEvent,
  Variation,
} from '../api/types';

/** The event names, from Go (app/events.go, through contract.gen.ts). */
export { EVENTS };

export type Unsubscribe = () => void;

export interface EventHandlers {
  onTaskUpdate: (task: Task) => void;
  onTaskMessage: (ev: TaskMessageEvent) => void;
  onMessageDelta: (ev: MessageDeltaEvent) => void;
  onConversationUpdated: (conversation: Conversation) => void;
  onToolOutput?: (ev: ToolOutputEvent) => void;
}

function runtimeReady(): boolean {
  const w = globalThis as { runtime?: unknown };
  return typeof w.runtime === 'object' && w.runtime !== null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function on<T>(name: EventName, valid: (v: unknown) => v is T, cb: (payload: T) => void): Unsubscribe {
  if (!runtimeReady()) return () => {};
  return EventsOn(name, (payload: unknown) => {
    if (!valid(payload)) {
      console.warn(`Errand: ignoring malformed ${name} event`, payload);
      return;
    }
    try {
      cb(payload);
    } catch (err) {
      // A handler bug must not break the event bus for everyone else.
      console.error(`Errand: ${name} handler failed`, err);
    }
  });
}

const isTask = (v: unknown): v is Task =>
  isObject(v) && typeof v.id === 'string' && typeof v.conversationId === 'string' && typeof v.status === 'string';

const isTaskMessage = (v: unknown): v is TaskMessageEvent =>
  isObject(v) &&
  typeof v.conversationId === 'string' &&
  isObject(v.message) &&
  typeof v.message.id === 'string';

const isDelta = (v: unknown): v is MessageDeltaEvent =>
  isObject(v) &&
  typeof v.conversationId === 'string' &&
  typeof v.messageId === 'string' &&
  typeof v.offset === 'number' &&
  typeof v.text === 'string';

const isConversation = (v: unknown): v is Conversation => isObject(v) && typeof v.id === 'string';

export function onTaskUpdate(cb: EventHandlers['onTaskUpdate']): Unsubscribe {
  return on(EVENTS.taskUpdate, isTask, cb);
}

export function onTaskMessage(cb: EventHandlers['onTaskMessage']): Unsubscribe {
  return on(EVENTS.taskMessage, isTaskMessage, cb);
}

export function onMessageDelta(cb: EventHandlers['onMessageDelta']): Unsubscribe {
  return on(EVENTS.messageDelta, isDelta, cb);
}

const isToolOutput = (v: unknown): v is ToolOutputEvent =>
  isObject(v) && typeof v.callId === 'string' && typeof v.text === 'string';

export function onToolOutput(cb: (ev: ToolOutputEvent) => void): Unsubscribe {
  return on(EVENTS.toolOutput, isToolOutput, cb);
}

const isVariation = (v: unknown): v is Variation =>
  isObject(v) && typeof v.conversationId === 'string' && typeof v.index === 'number' && typeof v.text === 'string' && typeof v.rev === 'number';

/** A variation's text so far, or the variation done (the variations view shows them side by side). */
export function onVariation(cb: (v: Variation) => void): Unsubscribe {
  return on(EVENTS.variation, isVariation, cb);
}

export function onConversationUpdated(cb: EventHandlers['onConversationUpdated']): Unsubscribe {
  return on(EVENTS.conversationUpdated, isConversation, cb);
}

const isFactsChanged = (v: unknown): v is FactsChangedEvent => isObject(v) && typeof v.conversationId === 'string';

/** Facts changed (by the agent or the person): open memory views reload. */
export function onFactsChanged(cb: (ev: FactsChangedEvent) => void): Unsubscribe {
  return on(EVENTS.factsChanged, isFactsChanged, cb);
}

const isFilesChanged = (v: unknown): v is FilesChanged =>
  isObject(v) && typeof v.taskId === 'string' && typeof v.undone === 'boolean' && Array.isArray(v.files);

/** A task's changes were undone or redone: the payload is what is stored now. */
export function onFilesChanged(cb: (ev: FilesChanged) => void): Unsubscribe {
  return on(EVENTS.filesChanged, isFilesChanged, cb);
}

const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** A click on a notification asks to open its conversation (the payload is its id). */
export function onOpenConversation(cb: (conversationId: string) => void): Unsubscribe {
  return on(EVENTS.openConversation, isString, cb);
}

const isMCPServerState = (v: unknown): v is MCPServerState =>
  isObject(v) && isObject(v.server) && typeof v.server.id === 'string' && typeof v.status === 'string';

/** An MCP server's status or tools changed. */
export function onMCPServer(cb: (state: MCPServerState) => void): Unsubscribe {
  return on(EVENTS.mcpServer, isMCPServerState, cb);
}

/** Subscribes to every backend event; returns one function that unsubscribes all. */
export function subscribeAll(h: EventHandlers): Unsubscribe {
  const offs = [
    onTaskUpdate(h.onTaskUpdate),
    onTaskMessage(h.onTaskMessage),
    onMessageDelta(h.onMessageDelta),
    onConversationUpdated(h.onConversationUpdated),
    ...(h.onToolOutput ? [onToolOutput(h.onToolOutput)] : []),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * Files dropped on the desktop window, by path (Wails' file drop, on for
 * the window in main.go): only a drop on an element under the
 * `--wails-drop-target: drop` CSS property counts. One listener at a time.
 */
export function onFileDrop(cb: (paths: string[]) => void): Unsubscribe {
  if (!runtimeReady()) return () => {};
  OnFileDrop((_x, _y, paths) => {
    if (Array.isArray(paths) && paths.every((p) => typeof p === 'string')) cb(paths);
  }, true);
  return () => OnFileDropOff();
}

/**
 * Opens a web address in the person's browser, never in the app window
 * (which can call Go). Outside Wails (tests, a plain browser) it opens a
 * new tab.
 */
export function openExternal(url: string): void {
  const w = globalThis as { runtime?: { BrowserOpenURL?: unknown } };
  if (typeof w.runtime?.BrowserOpenURL === 'function') {
    BrowserOpenURL(url);
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Closes the window as its close button does: Go asks first when tasks
 * are at work (App.BeforeClose). Nothing outside the desktop window.
 */
export function quitApp(): void {
  const w = globalThis as { runtime?: { Quit?: unknown } };
  if (typeof w.runtime?.Quit === 'function') Quit();
}
