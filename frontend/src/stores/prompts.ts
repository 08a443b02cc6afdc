// The saved prompts: read from Go when a view first needs them, and again
// after every change made here (Save as prompt, Settings → Prompts).
import { create } from 'zustand';
import * as api from '../api';
import type { SavedPrompt } from '../api/types';
import { reportError } from './notices';

interface PromptsState {
  list: SavedPrompt[];
  loaded: boolean;
}

export const usePromptsStore = create<PromptsState>()(() => ({ list: [], loaded: false }));

/** Reads the prompts again; a failure is reported and keeps the last list. */
export async function loadPrompts(): Promise<void> {
  try {
    usePromptsStore.setState({ list: await api.listPrompts(), loaded: true });
  } catch (err) {
    reportError(err, 'Could not read the saved prompts');
  }
}

/** Saves a new prompt (Go's refusal is thrown, for the form to show at its field). */
export async function createPrompt(name: string, text: string): Promise<SavedPrompt> {
  const p = await api.createPrompt(name, text);
  await loadPrompts();
  return p;
}

/** Renames a prompt or changes its text. */
export async function updatePrompt(id: string, name: string, text: string): Promise<SavedPrompt> {
  const p = await api.updatePrompt(id, name, text);
  await loadPrompts();
  return p;
}

export async function deletePrompt(id: string): Promise<void> {
  await api.deletePrompt(id);
  await loadPrompts();
}
