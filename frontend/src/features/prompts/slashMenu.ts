// What the composer's "/" menu offers for the text typed so far. Pure, so
// the rules are unit-tested without rendering.
import type { SavedPrompt } from '../../api/types';

export interface SlashItem {
  /** Unique among the items, and the base of the option's element id. */
  key: string;
  /** What the row shows first: the prompt's name, or the command. */
  label: string;
  /** What the row shows after it: the start of the prompt's text, or what the command does. */
  detail: string;
  /** What the composer holds once the item is picked. */
  insert: string;
}

const COMMANDS: SlashItem[] = [
  { key: 'cmd-task', label: '/task', detail: 'Work on this message as a task', insert: '/task ' },
  { key: 'cmd-chat', label: '/chat', detail: 'Answer this message directly', insert: '/chat ' },
];

/** The first line of a prompt's text, cut short. */
function preview(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The items for the composer's text: the saved prompts whose name holds
 * what follows the "/", then the commands it begins; null when the text
 * is not a "/" on one line, or nothing matches.
 */
export function slashItems(text: string, prompts: readonly SavedPrompt[]): SlashItem[] | null {
  if (!text.startsWith('/') || text.includes('\n')) return null;
  const query = text.slice(1).toLowerCase();
  const items: SlashItem[] = [
    ...prompts
      .filter((p) => p.name.toLowerCase().includes(query))
      .map((p) => ({ key: `prompt-${p.id}`, label: p.name, detail: preview(p.text), insert: p.text })),
    ...COMMANDS.filter((c) => c.label.startsWith(`/${query}`)),
  ];
  return items.length > 0 ? items : null;
}
