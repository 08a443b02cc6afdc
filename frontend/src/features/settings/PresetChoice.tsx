import { forwardRef, useId } from 'react';
import type { ProviderPreset } from '../../api';
import { CUSTOM, DEMO } from './providerForm';

/** "api.openai.com", "localhost:11434". */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A preset's name as the choice shows it ("Custom (OpenAI-compatible)" says the rest below it). */
function presetName(p: ProviderPreset): string {
  return p.id === CUSTOM ? 'Custom' : p.name;
}

function presetMeta(p: ProviderPreset): string {
  if (p.id === DEMO) return 'No network, canned replies';
  if (p.id === CUSTOM) return 'Any OpenAI-compatible server';
  if (p.local) {
    let port = '';
    try {
      port = new URL(p.baseUrl).port;
    } catch {
      // not a URL: no port to show
    }
    return port ? `This computer, port ${port}` : 'This computer';
  }
  return hostOf(p.baseUrl);
}

/**
 * The kinds of server, one to choose, those running on this computer
 * marked (detected). The ref is the group's, for the dialog opened from
 * "Connect a model" to put the focus there.
 */
export const PresetChoice = forwardRef<
  HTMLDivElement,
  { presets: ProviderPreset[]; chosen: string; detected: ReadonlySet<string>; onChoose: (id: string) => void }
>(function PresetChoice({ presets, chosen, detected, onChoose }, ref) {
  const id = useId();
  return (
    <div ref={ref} className="preset-grid" role="radiogroup" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="sr-only">
        Provider
      </span>
      {presets.map((p) => {
        const checked = chosen === p.id;
        const running = detected.has(p.id);
        const pid = `${id}-preset-${p.id}`;
        return (
          <label key={p.id} className={`preset-option${checked ? ' is-checked' : ''}${p.id === DEMO ? ' is-demo' : ''}`}>
            <input
              type="radio"
              name={`${id}-preset`}
              value={p.id}
              checked={checked}
              aria-labelledby={`${pid}-name`}
              aria-describedby={`${pid}-meta`}
              onChange={() => onChoose(p.id)}
            />
            <span className="preset-text">
              <span className="preset-name">
                <span id={`${pid}-name`}>{presetName(p)}</span>
                {running && (
                  <span className="preset-badge" aria-hidden="true" title={`${p.name} answers at ${p.baseUrl}`}>
                    Running
                  </span>
                )}
              </span>
              <span className="preset-meta" id={`${pid}-meta`}>
                {presetMeta(p)}
                {running && <span className="sr-only"> (running now)</span>}
              </span>
            </span>
          </label>
        );
      })}
    </div>
  );
});
