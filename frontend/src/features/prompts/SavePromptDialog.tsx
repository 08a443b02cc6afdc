import { useId } from 'react';
import { Modal } from '../../components/Modal';
import { createPrompt } from '../../stores/prompts';
import { reportInfo } from '../../stores/notices';
import { PromptForm } from './PromptForm';

/** A name to start from: the message's first words. */
export function suggestedName(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, 6).join(' ');
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
}

/** "Save as prompt": a message's text kept under a name, for the composer's "/" menu. */
export function SavePromptDialog({ text, onClose }: { text: string; onClose: () => void }) {
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="prompt-dialog">
      <h2 id={titleId} className="modal-title">
        Save as prompt
      </h2>
      <p className="modal-text">Type / in an empty message box to use it again. Settings → Prompts edits it.</p>
      <PromptForm
        initial={{ name: suggestedName(text), text }}
        submitLabel="Save prompt"
        onCancel={onClose}
        onSave={async (name, t) => {
          const p = await createPrompt(name, t);
          reportInfo(`Saved the prompt ${p.name}.`);
          onClose();
        }}
      />
    </Modal>
  );
}
