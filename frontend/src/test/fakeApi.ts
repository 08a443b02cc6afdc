// The one fake of the API module for every vitest file (src/test/setup.ts
// installs it). Every call to Go becomes a vi.fn(); the helpers that do not
// call Go (ApiError, isBusy, RISKS, …) stay real. A test sets what a call
// returns with vi.mocked(api.x).mockResolvedValue(…), as it would with a
// hand-written factory. Calls many components make on mount answer with an
// empty list, so a test that does not care about them need not say so.
import { vi } from 'vitest';
import * as errors from '../api/errors';
import * as types from '../api/types';

const pure = new Set([...Object.keys(errors), ...Object.keys(types)]);

// Answers for calls made on mount by components a test did not aim at.
const onMount: Record<string, (...args: never[]) => unknown> = {
  // The start's one call: a test that gives no first screen gets its
  // parts asked for alone, as after a failed call (App.test.tsx gives one).
  firstScreen: async () => {
    throw new Error('no first screen in this test');
  },
  listMCPServers: async () => [],
  listAgents: async () => [],
  agentStats: async () => [],
  listFacts: async () => [],
  listAllFacts: async () => ({ facts: [], titles: {} }),
  listPrompts: async () => [],
  // A task's Files changed card: no files.
  filesChanged: async (taskId: string) => ({ taskId, undone: false, pruned: false, dismissed: false, files: [], notUndoable: [] }),
  checkpointStorage: async () => ({ usedBytes: 0, limitBytes: 0 }),
};

export function fakeApi<T extends Record<string, unknown>>(actual: T): T {
  const fake: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(actual)) {
    const callsGo = typeof value === 'function' && !pure.has(name);
    fake[name] = callsGo ? vi.fn(onMount[name]) : value;
  }
  return fake as T;
}

// The events module: every subscription is a vi.fn() that returns an
// unsubscribe function and delivers nothing unless a test calls its handler.
export function fakeEvents<T extends Record<string, unknown>>(actual: T): T {
  const fake: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(actual)) {
    fake[name] = typeof value === 'function' ? vi.fn(() => () => {}) : value;
  }
  return fake as T;
}
