import { create } from 'zustand';
import type { ToolOutputEvent } from '../api/types';

/** The most of a running command's output kept to show live (its end). */
export const LIVE_OUTPUT_KEEP = 16 * 1024;

interface ToolOutputStore {
  /** Output so far, by tool call id (the end of it). */
  byCall: Record<string, string>;
}

export const useToolOutputStore = create<ToolOutputStore>()(() => ({ byCall: {} }));

/** Adds a command's output as it arrives; only its end is kept. */
export function handleToolOutput(ev: ToolOutputEvent): void {
  useToolOutputStore.setState((s) => {
    const text = (s.byCall[ev.callId] ?? '') + ev.text;
    return { byCall: { ...s.byCall, [ev.callId]: text.length > LIVE_OUTPUT_KEEP ? text.slice(-LIVE_OUTPUT_KEEP) : text } };
  });
}
