import { Fragment, type ReactNode } from 'react';
import type { Settings } from '../../api';
import { AgentsSection } from '../agents/AgentsSection';
import { DataSection } from '../archive/DataSection';
import { McpSection } from '../mcp/McpSection';
import { MemorySection } from '../memory/MemorySection';
import { PromptsSection } from '../prompts/PromptsSection';
import { AboutSection } from './AboutSection';
import { ThinkingSection } from './ThinkingSection';

/** Stores a change to the settings at once (useSettingsForm's store). */
type Store = (change: Partial<Settings>) => Promise<void>;

/**
 * The sections below the form, in order. Each saves its own changes at
 * once: the switches through store (the dialog's one way to save
 * settings), the lists (agents, MCP servers, data) through their own
 * calls. A new section goes in this list; an early one shows before the
 * settings are loaded too.
 */
type Section =
  | { key: string; early?: false; render: (loaded: Settings, store: Store) => ReactNode }
  | { key: string; early: true; render: () => ReactNode };

const SECTIONS: Section[] = [
  {
    key: 'thinking',
    render: (loaded, store) => (
      <ThinkingSection shown={loaded.showThinking !== false} onToggle={(on) => store({ showThinking: on })} />
    ),
  },
  {
    key: 'memory',
    render: (loaded, store) => (
      <MemorySection enabled={loaded.memoryEnabled !== false} onToggle={(on) => store({ memoryEnabled: on })} />
    ),
  },
  { key: 'prompts', render: () => <PromptsSection /> },
  { key: 'agents', early: true, render: () => <AgentsSection /> },
  {
    key: 'mcp',
    render: (loaded, store) => (
      <McpSection timeoutSec={loaded.mcpCallTimeoutSec ?? 120} onTimeout={(sec) => store({ mcpCallTimeoutSec: sec })} />
    ),
  },
  {
    key: 'data',
    render: (loaded, store) => (
      <DataSection notifications={loaded.notifications !== false} onToggle={(on) => store({ notifications: on })} />
    ),
  },
  { key: 'about', early: true, render: () => <AboutSection /> },
];

/**
 * The sections that save at once: the early ones (Agents, About) from the
 * start, the others once the settings are loaded. Each keeps its place (its
 * key), so an early one is not made anew when the others come: an agent
 * being written in Agents stays open.
 */
export function SavedAtOnceSections({ loaded, store }: { loaded: Settings | null; store: Store }) {
  return SECTIONS.map((s) =>
    s.early ? (
      <Fragment key={s.key}>{s.render()}</Fragment>
    ) : loaded ? (
      <Fragment key={s.key}>{s.render(loaded, store)}</Fragment>
    ) : null,
  );
}
