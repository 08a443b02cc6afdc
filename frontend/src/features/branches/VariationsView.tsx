import { useEffect, useRef, useState } from 'react';
import { ApiError, type Variation } from '../../api';
import { Modal } from '../../components/Modal';
import { Markdown } from '../../components/Markdown';
import { onVariation } from '../../events';
import { formatDuration } from '../../lib/time';
import { useAppStore } from '../../stores/app';
import { keepVersion, stopVariations, writeVariations } from '../../stores/branchActions';
import { loadCurrentModels } from '../../stores/modelActions';
import { useModelsStore } from '../../stores/models';
import { formatCost, formatTokens } from '../tasks/format';
import { closeBranchUI, useBranchUI } from './state';

/** How many variations one run writes at most, and at first (as Go's agent.MaxVariations and DefaultVariations). */
export const MAX_VARIATIONS = 5;
export const DEFAULT_VARIATIONS = 3;

/**
 * "Variations" on a reply: 1–5 more, each taking its own approach, each from a model of the person's choice,
 * streamed side by side with their tokens, cost and time; Stop (or Esc) stops them; "Keep this one" shows one.
 */
export function VariationsView() {
  const target = useBranchUI((s) => s.variationsOf);
  if (!target) return null;
  return <View key={target.messageId} conversationId={target.conversationId} messageId={target.messageId} />;
}

type Phase = 'choosing' | 'writing' | 'done';

/** The latest report of each variation by its place, a stale (older) report ignored. */
function useVariations(conversationId: string, messageId: string) {
  const [byIndex, setByIndex] = useState<Record<number, Variation>>({});
  useEffect(
    () =>
      onVariation((v) => {
        if (v.conversationId !== conversationId || v.replyId !== messageId) return;
        setByIndex((s) => ((s[v.index]?.rev ?? -1) >= v.rev ? s : { ...s, [v.index]: v }));
      }),
    [conversationId, messageId],
  );
  return [byIndex, setByIndex] as const;
}

function View({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const demo = useAppStore((s) => !!s.modelInfo?.demo);
  const list = useModelsStore((s) => s.list) ?? [];
  const [count, setCount] = useState(String(DEFAULT_VARIATIONS));
  const [countError, setCountError] = useState('');
  const [models, setModels] = useState<string[]>(() => Array<string>(MAX_VARIATIONS).fill(''));
  const [phase, setPhase] = useState<Phase>('choosing');
  const [byIndex, setByIndex] = useVariations(conversationId, messageId);
  const writeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!demo) void loadCurrentModels();
  }, [demo]);
  const n = Math.min(MAX_VARIATIONS, Math.max(1, Math.trunc(Number(count)) || 1));

  const write = async () => {
    setCountError('');
    setByIndex({});
    setPhase('writing');
    const got = await writeVariations(conversationId, messageId, Number(count), models.slice(0, n), (err) => {
      if (err instanceof ApiError && err.field === 'count') {
        setCountError(err.message);
        return true;
      }
      return false;
    });
    if (!got) {
      setPhase('choosing');
      return;
    }
    setByIndex(Object.fromEntries(got.map((v) => [v.index, v])));
    setPhase('done');
  };
  const stop = () => void stopVariations(conversationId);
  const keep = async (id: string) => {
    if (await keepVersion(conversationId, id)) closeBranchUI();
  };
  const columns = phase === 'choosing' ? n : Math.max(Object.keys(byIndex).length, n);
  return (
    <Modal label="Variations" className="variations" initialFocus={writeRef} onClose={phase === 'writing' ? stop : closeBranchUI}>
      <h2 className="modal-title">Variations</h2>
      <p className="modal-text">
        More replies in place of this one, each taking its own approach, written side by side. Keep the one you like: the others
        stay as versions.
      </p>
      <div className="variation-count">
        <label htmlFor="variation-count">How many</label>
        <input
          id="variation-count"
          type="number"
          min={1}
          max={MAX_VARIATIONS}
          value={count}
          disabled={phase !== 'choosing'}
          aria-invalid={countError ? true : undefined}
          aria-describedby={countError ? 'variation-count-error' : undefined}
          onChange={(e) => {
            setCount(e.target.value);
            setCountError('');
          }}
        />
        {countError && (
          <p id="variation-count-error" className="field-error" role="alert">
            {countError}
          </p>
        )}
      </div>
      <div className="variation-columns">
        {Array.from({ length: columns }, (_, i) => (
          <Column
            key={i}
            index={i}
            v={byIndex[i]}
            phase={phase}
            model={models[i] ?? ''}
            models={list}
            demo={demo}
            onModel={(m) => setModels((ms) => ms.map((x, j) => (j === i ? m : x)))}
            onKeep={(id) => void keep(id)}
          />
        ))}
      </div>
      <div className="modal-actions">
        {phase === 'writing' ? (
          <button type="button" className="btn btn-danger" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" className="btn btn-ghost" onClick={closeBranchUI}>
            Close
          </button>
        )}
        {phase === 'choosing' && (
          <button ref={writeRef} type="button" className="btn btn-primary" onClick={() => void write()}>
            Write variations
          </button>
        )}
      </div>
    </Modal>
  );
}

interface ColumnProps {
  index: number;
  v: Variation | undefined;
  phase: Phase;
  model: string;
  models: string[];
  demo: boolean;
  onModel(model: string): void;
  onKeep(id: string): void;
}

/** One variation: its model, its text as it is written, and once done its figures and "Keep this one". */
function Column({ index, v, phase, model, models, demo, onModel, onKeep }: ColumnProps) {
  return (
    <section className="variation" aria-label={`Variation ${index + 1}`}>
      {phase === 'choosing' ? (
        <label className="variation-model">
          Model
          <select value={model} disabled={demo} onChange={(e) => onModel(e.target.value)}>
            <option value="">{demo ? 'Demo model' : "The conversation's model"}</option>
            {models.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="variation-model">{v?.model || model || (demo ? 'Demo model' : "The conversation's model")}</p>
      )}
      <div className="variation-body" aria-busy={phase === 'writing' && !v?.done ? true : undefined}>
        {v?.text ? <Markdown text={v.text} /> : <p className="variation-empty">{emptyText(phase, v)}</p>}
      </div>
      {v?.error && (
        <p className="variation-error" role="alert">
          {v.error}
        </p>
      )}
      {v?.done && <Figures v={v} />}
      {v?.message && (
        <button type="button" className="btn btn-primary" onClick={() => onKeep(v.message!.id)}>
          Keep this one
        </button>
      )}
    </section>
  );
}

function emptyText(phase: Phase, v: Variation | undefined): string {
  if (v?.done) return v.stopped ? 'Stopped before it wrote anything' : 'Nothing written';
  return phase === 'writing' ? 'Writing…' : 'Not written yet';
}

/** What a variation used, cost and took, to compare. */
function Figures({ v }: { v: Variation }) {
  const u = v.usage;
  return (
    <p className="variation-figures" aria-label="Figures">
      {v.stopped && <span className="variation-stopped">Stopped</span>}
      <span title={`${u.promptTokens} prompt, ${u.completionTokens} completion`}>{formatTokens(u.totalTokens)}</span>
      <span>{formatCost(v.costUsd)}</span>
      <span>{formatDuration(v.elapsedMs)}</span>
    </p>
  );
}
