import { useState } from 'react';
import type { Attachment } from '../../api/types';
import { lazyView } from '../../components/LazyView';
import { formatBytes } from '../../lib/bytes';
import { openAttachment } from '../../stores/attachmentActions';
import { FileIcon } from './icons';
import { useAttachmentImage } from './useAttachmentImage';
import './attachments.css';

const ImageViewer = lazyView('the image', () => import('./ImageViewer').then((m) => m.ImageViewer));

/** The height of a sent image's thumbnail; its width follows the image's shape. */
const THUMB_HEIGHT = 120;

/** What a sent message carried: its images (click to view larger) and its files (click to open). */
export function MessageAttachments({ attachments }: { attachments: Attachment[] }) {
  const [viewing, setViewing] = useState<Attachment | null>(null);
  const images = attachments.filter((a) => a.kind === 'image');
  const files = attachments.filter((a) => a.kind !== 'image');
  return (
    <div className="message-files">
      {images.length > 0 && (
        <div className="message-images">
          {images.map((a) => (
            <button
              key={a.id}
              type="button"
              className="message-image"
              aria-label={`View ${a.name}`}
              title={a.name}
              style={{ width: thumbWidth(a) }}
              onClick={() => setViewing(a)}
            >
              <Thumb attachment={a} />
            </button>
          ))}
        </div>
      )}
      {files.map((a) => (
        <button
          key={a.id}
          type="button"
          className="attach-chip message-file"
          title="Open with the system's viewer"
          onClick={() => void openAttachment(a)}
        >
          <span className="attach-chip-thumb">
            <FileIcon />
          </span>
          <span className="attach-chip-text">
            <span className="attach-chip-name">{a.name}</span>
            <span className="attach-chip-meta">{formatBytes(a.size)}</span>
          </span>
        </button>
      ))}
      {viewing && <ImageViewer attachment={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

/** The width that keeps the image's shape at the thumbnail's height (within bounds), known before it loads. */
function thumbWidth(a: Attachment): number {
  const w = a.width ?? 0;
  const h = a.height ?? 0;
  if (w <= 0 || h <= 0) return THUMB_HEIGHT;
  return Math.round(Math.min(2 * THUMB_HEIGHT, Math.max(THUMB_HEIGHT / 2, (THUMB_HEIGHT * w) / h)));
}

function Thumb({ attachment }: { attachment: Attachment }) {
  const { src, error } = useAttachmentImage(attachment.id);
  if (error) return <span className="message-image-missing">Image not shown: {error}</span>;
  if (!src) return <span className="message-image-loading" aria-label="Loading image" role="img" />;
  return <img src={src} alt={attachment.name} />;
}
