import { useRef } from 'react';
import type { Attachment } from '../../api/types';
import { Modal } from '../../components/Modal';
import { formatBytes } from '../../lib/bytes';
import { openAttachment } from '../../stores/attachmentActions';
import { useAttachmentImage } from './useAttachmentImage';

/** A sent image, larger: a dialog named by the file's name; Esc or Close ends it. */
export function ImageViewer({ attachment, onClose }: { attachment: Attachment; onClose: () => void }) {
  const { src, error } = useAttachmentImage(attachment.id);
  const close = useRef<HTMLButtonElement>(null);
  const size = attachment.width && attachment.height ? `${attachment.width}×${attachment.height} · ` : '';
  return (
    <Modal label={attachment.name} className="image-viewer" initialFocus={close} onClose={onClose}>
      <div className="image-viewer-bar">
        <span className="image-viewer-name" title={attachment.name}>
          {attachment.name}
        </span>
        <span className="muted">
          {size}
          {formatBytes(attachment.size)}
        </span>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void openAttachment(attachment)}>
          Open in viewer
        </button>
        <button ref={close} type="button" className="btn btn-ghost btn-small" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="image-viewer-body">
        {error ? (
          <p className="attach-chip-error">Image not shown: {error}</p>
        ) : src ? (
          <img src={src} alt={attachment.name} />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    </Modal>
  );
}
