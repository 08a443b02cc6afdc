import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/** What the model field is given. */
interface ModelComboboxProps {
  id: string;
  value: string;
  onChange: (v: string) => void;
  /** The server's models; null when not (yet) known. */
  models: readonly string[] | null;
  loading: boolean;
  /** Why the list could not be read. */
  error: string | null;
  /** The list is about to show: a chance to load it. */
  onOpen: () => void;
  invalid?: boolean;
  describedBy?: string;
  placeholder?: string;
}

/**
 * A text field for a model name with the server's models as suggestions
 * (an ARIA combobox: type to filter, ↓/↑ to move, Enter to choose, Esc to
 * close). Any text is allowed: a server may serve a model it does not list.
 */
export function ModelCombobox({
  id,
  value,
  onChange,
  models,
  loading,
  error,
  onOpen,
  invalid,
  describedBy,
  placeholder,
}: ModelComboboxProps) {
  const [open, setOpen] = useState(false);
  // What the list is filtered by: what was typed, '' when opened to browse.
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();
  const optId = (i: number) => `${listId}-opt-${i}`;

  const all = models ?? [];
  const f = filter.trim().toLowerCase();
  const shown = f === '' || all.includes(filter.trim()) ? all : all.filter((m) => m.toLowerCase().includes(f));

  useEffect(() => {
    if (active >= shown.length) setActive(shown.length - 1);
  }, [active, shown.length]);

  useEffect(() => {
    if (!open || active < 0) return;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    if (el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const show = (browse: boolean) => {
    if (!open) onOpen();
    if (browse) setFilter('');
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (m: string) => {
    onChange(m);
    close();
    inputRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) {
          show(true);
          const at = all.indexOf(value.trim());
          setActive(at >= 0 ? at : 0);
        } else if (shown.length > 0) {
          setActive((a) => (a + 1) % shown.length);
        }
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) {
          show(true);
          setActive(all.length - 1);
        } else if (shown.length > 0) {
          setActive((a) => (a <= 0 ? shown.length - 1 : a - 1));
        }
        break;
      case 'Enter':
        if (open && active >= 0 && active < shown.length) {
          e.preventDefault();
          choose(shown[active]!);
        } else if (open) {
          close();
        }
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        break;
      case 'Tab':
        close();
        break;
    }
  };

  const activeId = open && active >= 0 && active < shown.length ? optId(active) : undefined;

  return (
    <div className="combo">
      <div className="combo-field">
        <input
          ref={inputRef}
          id={id}
          className="errand-input combo-input"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          onChange={(e) => {
            const v = e.target.value;
            onChange(v);
            setFilter(v);
            setActive(-1);
            // Typing suggests the models that match; with none (or nothing
            // typed) the list stays out of the way of the buttons below.
            if (models === null && !loading && !error) onOpen();
            const q = v.trim().toLowerCase();
            if (q !== '' && all.some((m) => m.toLowerCase().includes(q))) {
              if (!open) show(false);
            } else if (open) {
              close();
            }
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          // A click on the field opens its list, like the arrow beside it.
          onClick={() => {
            if (!open) show(true);
          }}
        />
        <button
          type="button"
          className="combo-toggle"
          tabIndex={-1}
          aria-label="Show the server's models"
          title="Show the server's models"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            if (open) close();
            else show(true);
            inputRef.current?.focus();
          }}
        >
          <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
            <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      {open && (
        <div className="combo-popup">
          <ul ref={listRef} id={listId} role="listbox" aria-label="Models on the server" className="combo-list">
            {shown.map((m, i) => (
              <li
                key={m}
                id={optId(i)}
                data-index={i}
                role="option"
                aria-selected={m === value.trim()}
                className={`combo-option${i === active ? ' is-active' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(i)}
                onClick={() => choose(m)}
              >
                {m}
              </li>
            ))}
          </ul>
          {shown.length === 0 && (
            <p className="combo-note">
              {loading
                ? 'Loading the models…'
                : error
                  ? `Could not list the models: ${error}`
                  : models === null
                    ? 'Test the connection to see the models.'
                    : all.length === 0
                      ? 'The server lists no models. Type the name.'
                      : 'No model matches. Errand will use the name as typed.'}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
