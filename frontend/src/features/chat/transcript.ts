// Turns stored messages into what the transcript shows. Pure, so the
// display rules are unit-tested without rendering.
import { parseObject } from '../../lib/json';
import type { Attachment, Delivery, Message, ToolCall, ToolOutcome } from '../../api/types';
import type { Grown } from '../../lib/grownText';

export type TranscriptItem =
  | { kind: 'user'; key: string; text: string; delivery?: Delivery; attachments?: Attachment[] }
  /** The answer to a question (ask_user's result): callId and parentId lead to the question's form, if it had one. */
  | { kind: 'answer'; key: string; text: string; callId: string; parentId: string }
  /** taskId and at (when it was written): a notice that ends its task shows the files the task changed. */
  | { kind: 'notice'; key: string; text: string; tone: 'neutral' | 'error'; taskId?: string; at?: string }
  | { kind: 'decision'; key: string; taskId: string; messageId: string }
  | { kind: 'summary'; key: string; summaryId: string }
  /** grown: while the reply streams, what each delta appended (see lib/grownText). */
  | { kind: 'agent'; key: string; text: string; step: number; streaming: boolean; taskId: string; cutOff?: boolean; grown?: Grown }
  /** The model's thinking: live while it streams before any answer, then folded (ms: how long it thought). */
  | { kind: 'thinking'; key: string; text: string; ms: number; live: boolean; step: number; taskId: string }
  | { kind: 'update'; key: string; text: string; step: number }
  | { kind: 'question'; key: string; question: string; choices: string[]; step: number; taskId: string }
  | { kind: 'complete'; key: string; summary: string; step: number; taskId: string; callId: string }
  | { kind: 'toolCall'; key: string; name: string; args: string; callId: string; taskId: string; step: number }
  | { kind: 'toolResult'; key: string; name: string; content: string; isError: boolean; outcome: ToolOutcome | '' };

/** A string argument, or the raw arguments when it cannot be read. */
function stringArg(call: ToolCall, name: string): string {
  const args = parseObject(call.arguments);
  const v = args?.[name];
  if (typeof v === 'string') return v;
  if (v !== undefined && v !== null) return JSON.stringify(v);
  return call.arguments ?? '';
}

function choicesArg(call: ToolCall): string[] {
  const v = parseObject(call.arguments)?.choices;
  if (!Array.isArray(v)) return [];
  return v.map((c) => (typeof c === 'string' ? c : JSON.stringify(c)));
}

/** Pretty-prints JSON arguments; invalid JSON is shown as it is. */
/**
 * What one message shows, cached per (immutable) message object: with its
 * thinking (Settings.showThinking) and without.
 */
const caches = { shown: new WeakMap<Message, TranscriptItem[]>(), hidden: new WeakMap<Message, TranscriptItem[]>() };

export function messageItems(m: Message & { grown?: Grown }, thinking = true): TranscriptItem[] {
  const cache = thinking ? caches.shown : caches.hidden;
  const hit = cache.get(m);
  if (hit) return hit;
  const items = computeItems(m, thinking);
  cache.set(m, items);
  return items;
}

export function buildTranscript(messages: readonly Message[], thinking = true): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  for (const m of messages) out.push(...messageItems(m, thinking));
  return out;
}

function computeItems(m: Message & { grown?: Grown }, thinking: boolean): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const step = typeof m.step === 'number' ? m.step : 0;
  const content = typeof m.content === 'string' ? m.content : '';
  const reasoning = thinking && typeof m.reasoning === 'string' ? m.reasoning : '';
  switch (m.role) {
    case 'user':
      items.push({
        ...(m.delivery === 'queued' || m.delivery === 'not_delivered'
          ? { kind: 'user', key: m.id, text: content, delivery: m.delivery }
          : { kind: 'user', key: m.id, text: content }),
        // The files sent with it, when there are any.
        ...(m.attachments?.length ? { attachments: m.attachments } : {}),
      });
      // How its task's mode was chosen, shown when Errand (or a command) chose it.
      if (m.taskId && !m.delivery) {
        items.push({ kind: 'decision', key: `${m.id}:decision`, taskId: m.taskId, messageId: m.id });
      }
      break;
    case 'system':
      if (typeof m.summaryId === 'string' && m.summaryId !== '') {
        items.push({ kind: 'summary', key: m.id, summaryId: m.summaryId });
        break;
      }
      items.push({
        kind: 'notice',
        key: m.id,
        text: content,
        tone: m.isError || /^error\b/i.test(content) ? 'error' : 'neutral',
        ...(m.taskId ? { taskId: m.taskId, at: m.createdAt } : {}),
      });
      break;
    case 'assistant': {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
      // The step badge goes on the message's first visible item only.
      let badge = step;
      const take = () => {
        const b = badge;
        badge = 0;
        return b;
      };
      // While the model thinks, its thinking is the live row; the reply's row comes with its first words.
      const live = !!m.streaming && content === '' && calls.length === 0;
      if (reasoning !== '') {
        const ms = typeof m.reasoningMs === 'number' ? m.reasoningMs : 0;
        items.push({ kind: 'thinking', key: `${m.id}:thinking`, text: reasoning, ms, live, step: take(), taskId: m.taskId ?? '' });
      }
      if (m.outcome === 'cut_off' && calls.length === 0 && content !== '') {
        // Cut off when Errand closed: the resumed step writes it again.
        items.push({ kind: 'agent', key: m.id, text: content, step: 0, streaming: false, taskId: m.taskId ?? '', cutOff: true });
      } else if (content !== '' || (live && reasoning === '')) {
        items.push({
          kind: 'agent',
          key: m.id,
          text: content,
          step: take(),
          streaming: !!m.streaming,
          taskId: m.taskId ?? '',
          ...(m.streaming && m.grown ? { grown: m.grown } : {}),
        });
      }
      calls.forEach((call, i) => {
        const key = `${m.id}:${i}`;
        switch (call.name) {
          case 'send_update':
            items.push({ kind: 'update', key, text: stringArg(call, 'message'), step: take() });
            break;
          case 'ask_user':
            items.push({
              kind: 'question',
              key,
              question: stringArg(call, 'question'),
              choices: choicesArg(call),
              step: take(),
              taskId: m.taskId ?? '',
            });
            break;
          case 'task_complete':
            items.push({ kind: 'complete', key, summary: stringArg(call, 'summary'), step: take(), taskId: m.taskId ?? '', callId: call.id });
            break;
          default:
            items.push({
              kind: 'toolCall',
              key,
              name: call.name || 'tool',
              args: call.arguments ?? '',
              callId: call.id,
              taskId: m.taskId ?? '',
              step,
            });
        }
      });
      break;
    }
    case 'tool': {
      // A tool's result shows in its call's row (ToolCallRow); a question's
      // answer as a bubble, and a question that got none as a row of its own.
      const name = m.toolName ?? '';
      if (name !== 'ask_user') break;
      if (!m.isError) items.push({ kind: 'answer', key: m.id, text: content, callId: m.toolCallId ?? '', parentId: m.parentId ?? '' });
      else items.push({ kind: 'toolResult', key: m.id, name, content, isError: true, outcome: m.outcome ?? '' });
      break;
    }
    default:
      // Unknown roles are shown as notices rather than dropped silently.
      if (content) items.push({ kind: 'notice', key: m.id, text: content, tone: 'neutral' });
  }
  return items;
}

/**
 * The rows a conversation's transcript shows, in order: each item's key,
 * kind (for size estimates) and the message it comes from. Deltas change a
 * message's text but rarely its rows, so `sameRows` lets the list keep its
 * previous rows and re-render only the row whose message changed.
 */
export interface TranscriptRows {
  keys: string[];
  kinds: TranscriptItem['kind'][];
  messageIds: string[];
}

export const EMPTY_ROWS: TranscriptRows = Object.freeze({ keys: [], kinds: [], messageIds: [] }) as TranscriptRows;

export function buildRows(messages: Iterable<Message>, thinking = true): TranscriptRows {
  const keys: string[] = [];
  const kinds: TranscriptItem['kind'][] = [];
  const messageIds: string[] = [];
  for (const m of messages) {
    for (const item of messageItems(m, thinking)) {
      keys.push(item.key);
      kinds.push(item.kind);
      messageIds.push(m.id);
    }
  }
  return keys.length === 0 ? EMPTY_ROWS : { keys, kinds, messageIds };
}

export function sameRows(a: TranscriptRows, b: TranscriptRows): boolean {
  if (a === b) return true;
  if (a.keys.length !== b.keys.length) return false;
  for (let i = 0; i < a.keys.length; i++) {
    if (a.keys[i] !== b.keys[i] || a.kinds[i] !== b.kinds[i]) return false;
  }
  return true;
}

/** The item with this key among a message's items. */
export function itemOf(m: Message | undefined, key: string, thinking = true): TranscriptItem | undefined {
  if (!m) return undefined;
  return messageItems(m, thinking).find((i) => i.key === key);
}
