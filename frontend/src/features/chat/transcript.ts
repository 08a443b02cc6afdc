// Turns stored messages into what the transcript shows. Pure, so the
// display rules are unit-tested without rendering.
import type { Message, ToolCall } from '../../api/types';

export type TranscriptItem =
  | { kind: 'user'; key: string; text: string }
  | { kind: 'answer'; key: string; text: string }
  | { kind: 'notice'; key: string; text: string; tone: 'neutral' | 'error' }
  | { kind: 'agent'; key: string; text: string; step: number; streaming: boolean }
  | { kind: 'update'; key: string; text: string; step: number }
  | { kind: 'question'; key: string; question: string; choices: string[]; step: number }
  | { kind: 'complete'; key: string; summary: string; step: number }
  | { kind: 'toolCall'; key: string; name: string; args: string; step: number }
  | { kind: 'toolResult'; key: string; name: string; content: string; isError: boolean };

/** Parses tool-call arguments; null if they are not a JSON object. */
export function parseArgs(raw: string | undefined): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A string argument, or the raw arguments when it cannot be read. */
function stringArg(call: ToolCall, name: string): string {
  const args = parseArgs(call.arguments);
  const v = args?.[name];
  if (typeof v === 'string') return v;
  if (v !== undefined && v !== null) return JSON.stringify(v);
  return call.arguments ?? '';
}

function choicesArg(call: ToolCall): string[] {
  const v = parseArgs(call.arguments)?.choices;
  if (!Array.isArray(v)) return [];
  return v.map((c) => (typeof c === 'string' ? c : JSON.stringify(c)));
}

/** Pretty-prints JSON arguments; invalid JSON is shown as it is. */
export function formatArgs(raw: string | undefined): string {
  if (!raw) return '';
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

const HIDDEN_RESULTS = new Set(['send_update', 'task_complete']);

/** What one message shows, cached per (immutable) message object. */
const cache = new WeakMap<Message, TranscriptItem[]>();

export function messageItems(m: Message): TranscriptItem[] {
  const hit = cache.get(m);
  if (hit) return hit;
  const items = computeItems(m);
  cache.set(m, items);
  return items;
}

export function buildTranscript(messages: readonly Message[]): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  for (const m of messages) out.push(...messageItems(m));
  return out;
}

function computeItems(m: Message): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const step = typeof m.step === 'number' ? m.step : 0;
  const content = typeof m.content === 'string' ? m.content : '';
  switch (m.role) {
    case 'user':
      items.push({ kind: 'user', key: m.id, text: content });
      break;
    case 'system':
      items.push({
        kind: 'notice',
        key: m.id,
        text: content,
        tone: m.isError || /^error\b/i.test(content) ? 'error' : 'neutral',
      });
      break;
    case 'assistant': {
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
      if (content !== '' || (m.streaming && calls.length === 0)) {
        items.push({ kind: 'agent', key: m.id, text: content, step, streaming: !!m.streaming });
      }
      calls.forEach((call, i) => {
        const key = `${m.id}:${i}`;
        switch (call.name) {
          case 'send_update':
            items.push({ kind: 'update', key, text: stringArg(call, 'message'), step });
            break;
          case 'ask_user':
            items.push({ kind: 'question', key, question: stringArg(call, 'question'), choices: choicesArg(call), step });
            break;
          case 'task_complete':
            items.push({ kind: 'complete', key, summary: stringArg(call, 'summary'), step });
            break;
          default:
            items.push({ kind: 'toolCall', key, name: call.name || 'tool', args: call.arguments ?? '', step });
        }
      });
      break;
    }
    case 'tool': {
      const name = m.toolName ?? '';
      if (name === 'ask_user' && !m.isError) items.push({ kind: 'answer', key: m.id, text: content });
      else if (!HIDDEN_RESULTS.has(name)) {
        items.push({ kind: 'toolResult', key: m.id, name: name || 'tool', content, isError: !!m.isError });
      }
      break;
    }
    default:
      // Unknown roles are shown as notices rather than dropped silently.
      if (content) items.push({ kind: 'notice', key: m.id, text: content, tone: 'neutral' });
  }
  return items;
}
