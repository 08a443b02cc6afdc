import { useEffect, useRef, useState } from 'react';

/**
 * An input for renaming a conversation: focused and selected when it
 * appears; Enter or leaving it keeps the text, Esc cancels (null). onDone
 * is called once.
 */
export function TitleInput({
  initial,
  onDone,
  className,
  label,
}: {
  initial: string;
  onDone: (title: string | null) => void;
  className: string;
  label: string;
}) {
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (v: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(v);
  };
  return (
    <input
      ref={ref}
      className={className}
      aria-label={label}
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(value);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          finish(null);
        }
      }}
      onBlur={() => finish(value)}
    />
  );
}
