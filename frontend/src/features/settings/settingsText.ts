// What the settings dialog says: the built-in instructions it shows, what
// Save says, and why a save failed.
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ProviderView } from '../../api';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { DEMO } from './providerForm';
import { checkCheckpoints, checkForm, checkPrompt, checkTable, duplicateModel, formField, type Field } from './settingsChecks';
import type { SettingsForm } from './settingsForm';

/** An error the dialog shows: the message, the field it marks, and what "Copy details" copies. */
export interface FormError {
  message: string;
  field?: Field;
  report?: ErrorReport;
}

/** A message worth showing: the Wails bridge can turn Go's reason into "[object Object]". */
export function readable(message: string): boolean {
  return message.trim() !== '' && !message.includes('[object Object]');
}

/**
 * The built-in instructions, shown when no custom ones are stored. Without
 * them the form still works (the field is then empty, which keeps them),
 * and error says why they are not shown.
 */
export async function builtInPrompt(): Promise<{ prompt: string; error: ErrorReport | null }> {
  try {
    const p = await Promise.resolve().then(() => api.defaultSystemPrompt());
    return { prompt: typeof p === 'string' ? p : '', error: null };
  } catch (err) {
    const e = toApiError(err);
    const message = readable(e.message) ? e.message : 'Errand did not answer.';
    return { prompt: '', error: { ...reportOf(e, new Date().toISOString()), message } };
  }
}

/** What Save says once everything changed is stored. */
export function savedText(provider: ProviderView | undefined): string {
  if (!provider) return 'Saved.';
  return !provider.preset || provider.preset === DEMO
    ? 'Saved. Errand uses the offline demo model.'
    : `Saved. New tasks use ${provider.model}.`;
}

/** What a Save that stored the provider but not the rest says about the provider. */
export function providerSavedText(provider: ProviderView): string {
  return !provider.preset || provider.preset === DEMO
    ? 'The model provider was saved (Errand uses the offline demo model)'
    : `The model provider was saved (new tasks use ${provider.model})`;
}

/** What the form can tell is wrong with the settings before asking Go. */
export function checkSettings(f: SettingsForm): FormError | null {
  const dup = duplicateModel(f);
  if (dup) return { message: `The model ${dup} is listed twice in the model table.`, field: 'prices' };
  return checkTable(f) ?? checkPrompt(f) ?? checkCheckpoints(f);
}

/** Why the settings were not saved: Go's reason and the field it names, or (when the bridge lost it) the form's. */
export function settingsError(err: unknown, f: SettingsForm): FormError {
  const ae = toApiError(err);
  const report = reportOf(ae, new Date().toISOString());
  if (readable(ae.message)) return { message: ae.message, field: formField(ae.field), report };
  return { ...(checkForm(f) ?? { message: 'Errand could not save the settings.' }), report };
}
