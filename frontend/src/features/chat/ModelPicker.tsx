import { useEffect, useState } from 'react';
import type { ModelInfo } from '../../api/types';
import { useAppStore } from '../../stores/app';
import { useConversationsStore } from '../../stores/conversations';
import { loadCurrentModels, setConversationModel } from '../../stores/modelActions';
import { useModelsStore } from '../../stores/models';
import { openSettings } from '../../stores/settingsView';
import './model.css';

function where(info: ModelInfo): string {
  const source =
    info.source === 'environment' ? ' (set by the environment)' : info.source === 'settings' ? ' (from Settings)' : '';
  return info.baseUrl ? `${info.baseUrl}${source}` : source.trim();
}

/**
 * The chat header's model menu: the default model, or one of the
 * provider's models for this conversation only (SetModel; '' = default).
 * With the demo model there is nothing to choose: a label says so.
 */
export function ModelPicker({ conversationId }: { conversationId: string }) {
  const info = useAppStore((s) => s.modelInfo);
  const chosen = useConversationsStore((s) => s.byId[conversationId]?.model ?? '');
  const list = useModelsStore((s) => s.list);
  const loading = useModelsStore((s) => s.loading);
  const error = useModelsStore((s) => s.error);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (info && !info.demo) void loadCurrentModels();
  }, [info]);

  if (!info) return null;
  if (info.demo) {
    return (
      <button
        type="button"
        className="model-chip model-chip-demo"
        title="Errand's built-in offline demo model. Click to connect a real model."
        onClick={() => openSettings('provider')}
      >
        Demo model
      </button>
    );
  }

  const models = list ?? [];
  const extra = chosen && !models.includes(chosen) ? [chosen] : [];
  const defaultLabel = `Default · ${info.model || 'model'}`;
  const label = !chosen ? defaultLabel : extra.length ? `${chosen} (not listed by the server)` : chosen;
  const onChange = async (value: string) => {
    setPending(true);
    try {
      await setConversationModel(conversationId, value);
    } finally {
      setPending(false);
    }
  };

  return (
    <span className={`model-picker${chosen ? ' is-chosen' : ''}`} title={where(info) || undefined}>
      <svg className="model-picker-icon" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
        <rect x="3.5" y="3.5" width="9" height="9" rx="2" fill="none" stroke="currentColor" strokeWidth="1.3" />
        <path
          d="M6 1.5v2M10 1.5v2M6 12.5v2M10 12.5v2M1.5 6h2M1.5 10h2M12.5 6h2M12.5 10h2"
          stroke="currentColor"
          strokeWidth="1.3"
          strokeLinecap="round"
        />
      </svg>
      {/* The pill is as wide as the chosen model's name, whatever the list
          holds: a select is as wide as its widest option, so the header
          moved when the list came, after the first paint. */}
      <span className="model-picker-label" aria-hidden="true">
        {label}
      </span>
      <select
        className="model-select"
        aria-label="Model for this conversation"
        value={chosen}
        disabled={pending}
        onFocus={() => {
          if (error) void loadCurrentModels(true);
        }}
        onChange={(e) => void onChange(e.target.value)}
      >
        <option value="">{defaultLabel}</option>
        {models.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
        {extra.map((m) => (
          <option key={m} value={m}>
            {m} (not listed by the server)
          </option>
        ))}
        {list === null && (loading || error) && (
          <option value="__status" disabled>
            {loading ? 'Loading the models…' : error ? 'Could not list the models' : ' '}
          </option>
        )}
      </select>
      <svg className="model-picker-chevron" viewBox="0 0 12 12" width="10" height="10" aria-hidden="true">
        <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
    </span>
  );
}
