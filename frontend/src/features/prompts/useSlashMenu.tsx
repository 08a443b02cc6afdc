import { useEffect, useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { loadPrompts, usePromptsStore } from '../../stores/prompts';
import { slashItems, type SlashItem } from './slashMenu';
import './prompts.css';

interface SlashMenu {
  /** The listbox above the composer, or null when closed. */
  menu: ReactNode;
  /** Handles the menu's keys (↑, ↓, Enter, Tab, Esc); true when it took the key. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** The composer field's ARIA attributes that tie it to the menu. */
  fieldProps: { 'aria-controls'?: string; 'aria-activedescendant'?: string; 'aria-autocomplete'?: 'list' };
}

/**
 * The composer's "/" menu: typed into an empty composer, "/" lists the
 * saved prompts and the /task and /chat commands, filtered by what follows
 * it. ↑ and ↓ choose, Enter (or Tab, or a click) puts the choice in the
 * composer — a prompt's text, or the command — and Esc closes the menu.
 */
export function useSlashMenu(text: string, enabled: boolean, pick: (text: string) => void): SlashMenu {
  const prompts = usePromptsStore((s) => s.list);
  const loaded = usePromptsStore((s) => s.loaded);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const id = useId();
  const slash = enabled && text.startsWith('/');
  const items = useMemo(() => (slash && dismissed !== text ? slashItems(text, prompts) : null), [slash, dismissed, text, prompts]);

  useEffect(() => {
    if (slash && !loaded) void loadPrompts();
  }, [slash, loaded]);
  useEffect(() => setActive(0), [text]);

  const choose = (item: SlashItem) => {
    setDismissed(null);
    pick(item.insert);
  };
  const index = items ? Math.min(active, items.length - 1) : 0;
  const optionId = (item: SlashItem) => `${id}-${item.key}`;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!items || e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
    const n = items.length;
    switch (e.key) {
      case 'ArrowDown':
        setActive((index + 1) % n);
        break;
      case 'ArrowUp':
        setActive((index - 1 + n) % n);
        break;
      case 'Enter':
      case 'Tab':
        if (e.shiftKey) return false;
        choose(items[index]!);
        break;
      case 'Escape':
        setDismissed(text);
        break;
      default:
        return false;
    }
    e.preventDefault();
    e.stopPropagation();
    return true;
  };

  const menu = items && (
    <ul id={`${id}-menu`} role="listbox" aria-label="Saved prompts and commands" className="slash-menu">
      {items.map((item, i) => (
        <li
          key={item.key}
          id={optionId(item)}
          role="option"
          aria-selected={i === index}
          className={`slash-item${i === index ? ' is-active' : ''}`}
          // Keep the focus in the composer.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => setActive(i)}
          onClick={() => choose(item)}
        >
          <span className="slash-label">{item.label}</span>
          <span className="slash-detail">{item.detail}</span>
        </li>
      ))}
    </ul>
  );
  const fieldProps = items
    ? { 'aria-controls': `${id}-menu`, 'aria-activedescendant': optionId(items[index]!), 'aria-autocomplete': 'list' as const }
    : {};
  return { menu, onKeyDown, fieldProps };
}
