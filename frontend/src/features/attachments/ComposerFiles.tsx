import { formatBytes } from '../../lib/bytes';
import { removeFile } from '../../stores/attachmentActions';
import { useComposerFiles, useFilesOf, type ComposerFile } from '../../stores/composerFiles';
import { FileIcon } from './icons';
import { useAttachmentImage } from './useAttachmentImage';
import './attachments.css';

/** The files about to go with the message: one chip each, and the limit crossed last. */
export function ComposerFiles({ conversationId }: { conversationId: string }) {
  const files = useFilesOf(conversationId);
  const note = useComposerFiles((s) => s.limitNote[conversationId] ?? '');
  if (files.length === 0 && !note) return null;
  return (
    <div className="composer-files">
      {files.length > 0 && (
        <ul className="attach-chips" aria-label="Attached files">
          {files.map((f) => (
            <FileChip key={f.key} file={f} onRemove={() => removeFile(conversationId, f.key)} />
          ))}
        </ul>
      )}
      {note && (
        <p className="attach-note" role="alert">
          {note}
        </p>
      )}
    </div>
  );
}

function FileChip({ file, onRemove }: { file: ComposerFile; onRemove: () => void }) {
  const storedImage = !file.preview && file.attachment?.kind === 'image' ? file.attachment.id : '';
  return (
    <li className={`attach-chip attach-chip-${file.state}`} aria-busy={file.state === 'checking' || undefined}>
      <span className="attach-chip-thumb">
        {file.preview ? <img src={file.preview} alt="" /> : storedImage ? <StoredThumb id={storedImage} /> : <FileIcon />}
      </span>
      <span className="attach-chip-text">
        <span className="attach-chip-name" title={file.name}>
          {file.name}
        </span>
        {file.state === 'refused' ? (
          <span className="attach-chip-error" role="alert">
            Not attached: {file.error}
          </span>
        ) : (
          <span className="attach-chip-meta">
            {file.state === 'checking' ? 'Checking…' : formatBytes(file.size)}
          </span>
        )}
      </span>
      <button type="button" className="attach-chip-remove" aria-label={`Remove ${file.name}`} onClick={onRemove}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

function StoredThumb({ id }: { id: string }) {
  const { src } = useAttachmentImage(id);
  return src ? <img src={src} alt="" /> : <FileIcon />;
}
