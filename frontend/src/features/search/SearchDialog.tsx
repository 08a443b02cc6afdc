// Search across every conversation (Ctrl/Cmd+K): results follow typing;
// ↑/↓ move, Enter (or a click) opens the conversation at the message.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../api/types';
import { Modal } from '../../components/Modal';
import { timeValue } from '../../lib/time';
import { selectConversation } from '../../stores/actions';
import { jumpToMessage } from '../../stores/sync';
import { displayTitle } from '../../lib/displayTitle';
import { useSearchDialog } from './searchDialog';
import { useSearch } from './useSearch';

export function SearchDialog() {
  const open = useSearchDialog((s) => s.open);
  return open ? <Dialog /> : null;
}

/** Opens a result: its conversation, scrolled to the message. */
export async function openHit(hit: SearchHit): Promise<void> {
  await selectConversation(hit.conversationId);
  await jumpToMessage(hit.conversationId, hit.messageId);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function Dialog() {
  const [query, setQuery] = useState('');
  const { hits, searching, error } = useSearch(query);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => setActive(0), [hits]);
  useEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const close = () => useSearchDialog.getState().close();

  const choose = (hit: SearchHit | undefined) => {
    if (!hit) return;
    close();
    void openHit(hit);
  };

  // Esc and Tab are the Modal's (the box is the dialog's one control).
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (hits.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + hits.length) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(hits[active]);
    }
  };

  const text = query.trim();
  let status = '';
  if (error) status = error;
  else if (text !== '' && !searching && hits.length === 0) status = 'No messages found';
  else if (text === '') status = 'Type words to find them in every conversation';

  return (
    <Modal label="Search" className="search-dialog" backdropClassName="search-backdrop" initialFocus={inputRef} onClose={close}>
      <div className="search-box">
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="m10.5 10.5 3.5 3.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        <input
          ref={inputRef}
          className="search-input"
          type="text"
          aria-label="Search conversations"
          aria-controls={listId}
          aria-activedescendant={hits.length > 0 ? optionId(active) : undefined}
          aria-autocomplete="list"
          placeholder="Search conversations"
          spellCheck={false}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
      </div>
      <ul id={listId} className="search-results" role="listbox" aria-label="Results" aria-busy={searching}>
        {hits.map((hit, i) => (
          <li
            key={hit.messageId}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="search-hit"
            onMouseMove={() => setActive(i)}
            onClick={() => choose(hit)}
          >
            <div className="search-hit-head">
              <span className="search-hit-title">{displayTitle(hit.conversationTitle)}</span>
              <time className="search-hit-date" dateTime={hit.createdAt}>
                {dateFormat.format(timeValue(hit.createdAt))}
              </time>
            </div>
            <div className="search-hit-snippet">
              <span className="search-hit-who">{hit.role === 'user' ? 'You' : 'Errand'}: </span>
              {hit.snippet.map((part, j) => (part.match ? <mark key={j}>{part.text}</mark> : <span key={j}>{part.text}</span>))}
            </div>
          </li>
        ))}
      </ul>
      {status && (
        <p className="search-status muted" role="status">
          {status}
        </p>
      )}
    </Modal>
  );
}
