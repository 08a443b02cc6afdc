import { describe, expect, it } from 'vitest';
import type { ProviderView } from '../../api/types';
import { hasStoredKey, inputFromForm, unreachableHint, type ProviderForm } from './providerForm';

const view: ProviderView = {
  preset: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  hasKey: true,
  keysFor: ['openai', 'openrouter'],
  keyStorage: 'file',
  keyNote: '',
  envOverride: false,
};

const form = (preset: string): ProviderForm => ({ preset, baseUrl: 'https://x/v1', model: 'm', apiKey: '', keyMode: 'keep' });

describe('stored keys per preset', () => {
  it('knows a key is stored for a preset other than the saved one', () => {
    expect(hasStoredKey(form('openrouter'), view)).toBe(true);
    expect(hasStoredKey(form('custom'), view)).toBe(false);
  });

  it('switching to a preset with a stored key keeps it instead of deleting it', () => {
    expect(inputFromForm(form('openrouter'), view)).toMatchObject({ preset: 'openrouter', apiKey: '', keepKey: true });
    expect(inputFromForm(form('custom'), view)).toMatchObject({ preset: 'custom', apiKey: '', keepKey: false });
  });
});

describe('a local server that does not answer', () => {
  it('says how to start Ollama or LM Studio; others get no guess', () => {
    expect(unreachableHint('ollama')).toBe('Is Ollama running? Start it with `ollama serve`.');
    expect(unreachableHint('lmstudio')).toMatch(/LM Studio's server on\? Start it/);
    expect(unreachableHint('custom')).toBe('');
  });
});
