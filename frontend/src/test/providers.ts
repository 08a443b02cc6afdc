import type { ProviderPreset, ProviderView } from '../api/types';

/** What Providers.Presets() answers (backend/providers/providers.go). */
export const PRESETS: ProviderPreset[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, local: false, model: 'gpt-4o-mini' },
  {
    id: 'anthropic',
    name: 'Anthropic',
    baseUrl: 'https://api.anthropic.com',
    needsKey: true,
    local: false,
    model: 'claude-sonnet-4-6',
  },
  { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', needsKey: false, local: true },
  { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://localhost:1234/v1', needsKey: false, local: true },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    local: false,
    model: 'openai/gpt-4o-mini',
  },
  { id: 'custom', name: 'Custom (OpenAI-compatible)', baseUrl: '', needsKey: false, local: false },
  { id: 'demo', name: 'Offline demo model', baseUrl: '', needsKey: false, local: false },
];

export const KEYRING_NOTE = 'API keys are kept in your system keyring.';
export const FILE_NOTE = 'No system keyring is available, so API keys are kept in /home/me/.config/Errand/secrets.json, readable only by you.';

/** GetProvider's answer; nothing configured by default. */
export function providerView(over: Partial<ProviderView> = {}): ProviderView {
  const v: ProviderView = {
    preset: '',
    baseUrl: '',
    model: '',
    hasKey: false,
    keyStorage: 'keyring',
    keyNote: KEYRING_NOTE,
    envOverride: false,
    keysFor: [],
    ...over,
  };
  // The presets with a stored key, as Go lists them: at least the stored one's when it has one.
  const keysFor = v.hasKey ? [...new Set([v.preset, ...v.keysFor])] : v.keysFor.filter((p) => p !== v.preset);
  return { ...v, keysFor };
}
