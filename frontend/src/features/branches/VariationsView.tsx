import { useRef, useState } from 'react';
import type { Message } from '../../api/types';
import { Modal } from '../../components/Modal';
import { usePending } from '../../lib/usePending';
import { useAppStore } from '../../stores/app';
import { keepVersion, writeVariations } from '../../stores/branchActions';
import { useModelsStore } from '../../stores/models';
import { Markdown } from '../../components/Markdown';
import { closeBranchUI, useBranchUI } from './state';

/** How many variations one run writes (as Go's agent.VariationCount). */
export const VARIATIONS = 3;

/** "Variations" on a reply: three more, side by side, each from a model of the person's choice; "Keep this one" shows it. */
export function VariationsView() {
  const target = useBranchUI((s) => s.variationsOf);
  if (!target) return null;
  return <View key={target.messageId} conversationId={target.conversationId} messageId={target.messageId} />;
}

function View({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const demo = useAppStore((s) => !!s.modelInfo?.demo);
  const list = useModelsStore((s) => s.list) ?? [];
  const [models, setModels] = useState<string[]>(() => Array<string>(VARIATIONS).fill(''));
  const [replies, setReplies] = useState<Message[] | null>(null);
  const { pending, run } = usePending();
  const writeRef = useRef<HTMLButtonElement>(null);
  const write = () =>
    run(async () => {
      setReplies(await writeVariations(conversationId, messageId, models));
    });
  const keep = async (id: string) => {
    if (await keepVersion(conversationId, id)) closeBranchUI();
  };
  return (
    <Modal label="Variations" className="variations" initialFocus={writeRef} onClose={closeBranchUI}>
      <h2 className="modal-title">Variations</h2>
      <p className="modal-text">
        Three more replies in place of this one, written side by side. Keep the one you like: the others stay as versions.
      </p>
      <div className="variation-columns">
        {models.map((model, i) => {
          const reply = replies?.[i];
          return (
          <section key={i} className="variation" aria-label={`Variation ${i + 1}`}>
            <label className="variation-model">
              Model
              <select
                value={model}
                disabled={pending || replies !== null || demo}
                onChange={(e) => setModels((ms) => ms.map((m, j) => (j === i ? e.target.value : m)))}
              >
                <option value="">{demo ? 'Demo model' : "The conversation's model"}</option>
                {list.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <div className="variation-body">
              {reply ? (
                <Markdown text={reply.content} />
              ) : (
                <p className="variation-empty">{pending ? 'Writing…' : 'Not written yet'}</p>
              )}
            </div>
            {reply && (
              <button type="button" className="btn btn-primary" onClick={() => void keep(reply.id)}>
                Keep this one
              </button>
            )}
          </section>
          );
        })}
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={closeBranchUI}>
          Close
        </button>
        {replies === null && (
          <button ref={writeRef} type="button" className="btn btn-primary" disabled={pending} onClick={() => void write()}>
            {pending ? 'Writing variations…' : 'Write variations'}
          </button>
        )}
      </div>
    </Modal>
  );
}
