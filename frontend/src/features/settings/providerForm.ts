// The provider form's state, and what it sends to Go. Pure, unit-tested.
// The stored key never reaches the frontend: the form knows only whether
// one is stored (hasKey), and says what to do with it (keep, replace,
// remove).
import type { ProviderInput, ProviderPreset, ProviderView, VerdictKind } from '../../api/types';

export const DEMO = 'demo';
export const CUSTOM = 'custom';

/** What to do with the stored key of the preset shown. */
export type KeyMode = 'keep' | 'replace' | 'remove';

export interface ProviderForm {
  preset: string;
  baseUrl: string;
  model: string;
  /** A key typed in (never a stored one). */
  apiKey: string;
  keyMode: KeyMode;
}

/** The form for what is stored; nothing configured shows the demo. */
export function formFromView(view: ProviderView | null): ProviderForm {
  if (!view || !view.preset || view.preset === DEMO) {
    return { preset: DEMO, baseUrl: '', model: '', apiKey: '', keyMode: 'keep' };
  }
  return { preset: view.preset, baseUrl: view.baseUrl ?? '', model: view.model ?? '', apiKey: '', keyMode: 'keep' };
}

/**
 * Another preset chosen: its usual address and first model; back on the
 * stored preset, what is stored. A typed key does not follow (it belongs
 * to the other server).
 */
export function switchPreset(
  form: ProviderForm,
  id: string,
  view: ProviderView | null,
  presets: readonly ProviderPreset[],
): ProviderForm {
  if (id === form.preset) return form;
  if (view && id === (view.preset || DEMO)) return formFromView(view);
  const p = presets.find((x) => x.id === id);
  return { preset: id, baseUrl: p?.baseUrl ?? '', model: p?.model ?? '', apiKey: '', keyMode: 'keep' };
}

/** A key is stored for the preset the form shows. */
export function hasStoredKey(form: ProviderForm, view: ProviderView | null): boolean {
  if (!view) return false;
  if (view.keysFor) return view.keysFor.includes(form.preset);
  return view.hasKey && form.preset === view.preset;
}

/** How the key field shows: the stored key (Replace/Remove), its removal pending, or a field to type one. */
export function keyState(form: ProviderForm, view: ProviderView | null): 'stored' | 'removing' | 'input' {
  if (!hasStoredKey(form, view)) return 'input';
  if (form.keyMode === 'remove') return 'removing';
  if (form.keyMode === 'replace') return 'input';
  return 'stored';
}

/** What TestConnection, ListModels and SaveProvider get. */
export function inputFromForm(form: ProviderForm, view: ProviderView | null): ProviderInput {
  if (form.preset === DEMO) return { preset: DEMO, baseUrl: '', model: '', apiKey: '', keepKey: false };
  const base = { preset: form.preset, baseUrl: form.baseUrl.trim(), model: form.model.trim() };
  const typed = form.apiKey.trim();
  if (hasStoredKey(form, view)) {
    if (form.keyMode === 'remove') return { ...base, apiKey: '', keepKey: false };
    // Replace with nothing typed keeps the stored key.
    if (form.keyMode === 'keep' || typed === '') return { ...base, apiKey: '', keepKey: true };
  }
  return { ...base, apiKey: typed, keepKey: false };
}

/** Whether the form differs from what is stored. */
export function providerChanged(form: ProviderForm, view: ProviderView | null): boolean {
  const stored = formFromView(view);
  if (form.preset !== stored.preset) return true;
  // (Nothing configured already means the demo.)
  if (form.preset === DEMO) return false;
  if (form.baseUrl.trim() !== stored.baseUrl.trim() || form.model.trim() !== stored.model.trim()) return true;
  const input = inputFromForm(form, view);
  return !input.keepKey && (input.apiKey !== '' || hasStoredKey(form, view));
}

/** Identifies the server a model list belongs to (address and key as the form has them). */
export function connectionKey(form: ProviderForm, view: ProviderView | null): string {
  const i = inputFromForm(form, view);
  return JSON.stringify([i.preset, i.baseUrl, i.keepKey, i.apiKey]);
}

export type ProviderField = 'baseUrl' | 'apiKey' | 'model';

/**
 * What the form can tell is wrong before asking Go (Go checks again). A
 * missing key is for the server to say: the test's verdict tells.
 */
export function checkProvider(form: ProviderForm, forSave: boolean): { field: ProviderField; message: string } | null {
  if (form.preset === DEMO) return null;
  const url = form.baseUrl.trim();
  if (url === '') return { field: 'baseUrl', message: 'Enter the server address, such as http://localhost:11434/v1.' };
  if (!/^https?:\/\/[^/\s]+/i.test(url)) {
    return { field: 'baseUrl', message: `"${url}" is not an http(s) address such as http://localhost:11434/v1.` };
  }
  if (forSave && form.model.trim() === '') return { field: 'model', message: 'Choose a model.' };
  return null;
}

/** A verdict as the settings show it: a headline and a tone. */
export function verdictLook(kind: VerdictKind | string, message = ''): { title: string; tone: 'ok' | 'warn' | 'bad' } {
  switch (kind) {
    case 'ok':
      return { title: 'Connected', tone: 'ok' };
    case 'wrong_key':
      // Go says "needs an API key" when none was sent.
      return { title: /needs an API key/i.test(message) ? 'API key needed' : 'Wrong API key', tone: 'warn' };
    case 'unreachable':
      return { title: 'Server unreachable', tone: 'bad' };
    case 'model_not_found':
      return { title: 'Model not found', tone: 'warn' };
    case 'not_compatible':
      return { title: 'Not an OpenAI-compatible server', tone: 'bad' };
    case 'invalid':
      return { title: 'Check the address', tone: 'bad' };
    default:
      return { title: 'The test failed', tone: 'bad' };
  }
}

/** "1 model", "12 models". */
export function modelCount(n: number): string {
  return `${n} model${n === 1 ? '' : 's'}`;
}

/** What to try when a local server does not answer: it is most likely not running. */
export function unreachableHint(presetId: string): string {
  switch (presetId) {
    case 'ollama':
      return 'Is Ollama running? Start it with `ollama serve`.';
    case 'lmstudio':
      return "Is LM Studio's server on? Start it in LM Studio's Developer tab, or with `lms server start`.";
    default:
      return '';
  }
}
