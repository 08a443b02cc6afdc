import { memo, useRef, type ChangeEvent } from 'react';
import { addFiles } from '../../stores/attachmentActions';
import { PaperclipIcon } from './icons';

/**
 * The paperclip: picks files with the system's file chooser (a hidden file
 * input). It renders again only when its props change, not with every key
 * and task change of the composer: React sets a file input's attributes
 * again at each of its renders.
 */
export const AttachButton = memo(function AttachButton({ conversationId, disabled }: { conversationId: string; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    // Picking the same file again must fire a change again.
    e.target.value = '';
    if (files.length > 0) void addFiles(conversationId, files);
  };
  return (
    <>
      <button
        type="button"
        className="icon-btn attach-button"
        aria-label="Attach files"
        title="Attach images or text files (or paste, or drop them here)"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <input ref={input} type="file" multiple hidden tabIndex={-1} aria-label="Files to attach" onChange={onPicked} />
    </>
  );
});
