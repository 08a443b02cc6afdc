// What the settings form can tell is wrong before asking Go, and which of
// its fields an error from Go is about. Pure, unit-tested.
import { blank, excludedFolders, parseNumber, type SettingsForm } from './settingsForm';

/** The fields (or groups of fields) of the form that an error can be about. */
const FIELDS = [
  'maxSteps',
  'maxMinutes',
  'maxCostUsd',
  'stepDelayMs',
  'modelFirstByteTimeoutSec',
  'modelIdleTimeoutSec',
  'reflectionRounds',
  'prices',
  'systemPrompt',
  'checkpoints',
] as const;
export type Field = (typeof FIELDS)[number];

/** Go's bounds on the model timeouts, in seconds (chat.MinModelTimeoutSec, MaxModelTimeoutSec). */
export const MODEL_TIMEOUT_MIN = 5;
export const MODEL_TIMEOUT_MAX = 3600;

/** Go's limit on the instructions. */
export const MAX_PROMPT = 20000;

/**
 * What the form can tell is wrong before asking Go. Go validates again and
 * its reason wins; duplicate model names are caught only here, because a
 * map cannot hold them.
 */
export function checkForm(form: SettingsForm): { field: Field; message: string } | null {
  const steps = parseNumber(form.maxSteps);
  if (!Number.isInteger(steps) || steps < 1 || steps > 10000) {
    return { field: 'maxSteps', message: 'The step limit must be a whole number between 1 and 10000.' };
  }
  const minutes = parseNumber(form.maxMinutes);
  if (!(minutes > 0 && minutes <= 1440)) {
    return { field: 'maxMinutes', message: 'The time limit must be more than 0 and at most 1440 minutes.' };
  }
  const cost = parseNumber(form.maxCostUsd);
  if (!(cost > 0 && cost <= 10000)) {
    return { field: 'maxCostUsd', message: 'The spend limit must be more than $0 and at most $10000.' };
  }
  const rounds = parseNumber(form.reflectionRounds);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > 5) {
    return { field: 'reflectionRounds', message: 'The reflection rounds must be a whole number from 0 (off) to 5.' };
  }
  const delay = parseNumber(form.stepDelayMs);
  if (!Number.isInteger(delay) || delay < 0 || delay > 60000) {
    return { field: 'stepDelayMs', message: 'The delay between steps must be a whole number from 0 to 60000 ms.' };
  }
  for (const [field, name] of [
    ['modelFirstByteTimeoutSec', 'first-byte'],
    ['modelIdleTimeoutSec', 'idle'],
  ] as const) {
    if (form[field] === '') continue; // an older Go that has no such setting
    const sec = parseNumber(form[field]);
    if (!Number.isInteger(sec) || sec < MODEL_TIMEOUT_MIN || sec > MODEL_TIMEOUT_MAX) {
      return {
        field,
        message: `The model ${name} timeout must be a whole number from ${MODEL_TIMEOUT_MIN} to ${MODEL_TIMEOUT_MAX} seconds.`,
      };
    }
  }
  return checkTable(form) ?? checkPrompt(form) ?? checkCheckpoints(form);
}

/** The checkpoint limit is a whole number of MB in Go's range, and each excluded folder a plain name. */
export function checkCheckpoints(form: SettingsForm): { field: Field; message: string } | null {
  if (form.checkpointLimitMb === '') return null; // an older Go that has no such setting
  const mb = parseNumber(form.checkpointLimitMb);
  if (!Number.isInteger(mb) || mb < 10 || mb > 1048576) {
    return { field: 'checkpoints', message: 'The checkpoint storage limit must be a whole number from 10 to 1048576 MB.' };
  }
  const odd = excludedFolders(form.checkpointExclude).find((n) => n === '.' || n === '..' || /[/\\]/.test(n));
  if (odd !== undefined) {
    return { field: 'checkpoints', message: `An excluded folder is a folder name such as node_modules, not "${odd}".` };
  }
  return null;
}

/** The instructions fit Go's limit. */
export function checkPrompt(form: SettingsForm): { field: Field; message: string } | null {
  if (new TextEncoder().encode(form.systemPrompt).length > MAX_PROMPT) {
    return { field: 'systemPrompt', message: `The instructions are longer than ${MAX_PROMPT} characters.` };
  }
  return null;
}

/**
 * The model table: names, prices and context lengths. Checked before
 * sending, because a blank number would reach Go as null, which it reads
 * as 0.
 */
export function checkTable(form: SettingsForm): { field: Field; message: string } | null {
  const seen = new Set<string>();
  for (const row of form.prices) {
    const model = row.model.trim();
    if (model === '') return { field: 'prices', message: 'Every row of the model table needs a model name.' };
    if (seen.has(model)) return { field: 'prices', message: `The model ${model} is listed twice.` };
    seen.add(model);
    if (!(blank(row.input) && blank(row.output))) {
      const input = parseNumber(row.input);
      const output = parseNumber(row.output);
      if (!(input >= 0) || !(output >= 0)) {
        return { field: 'prices', message: `The prices of ${model} must be numbers of $0 or more (or both blank).` };
      }
    }
    if (!blank(row.context)) {
      const n = parseNumber(row.context);
      if (!Number.isInteger(n) || n < 1) {
        return { field: 'prices', message: `The context length of ${model} must be a whole number of tokens (or blank).` };
      }
    }
  }
  return null;
}

/** Duplicate model names cannot be sent at all (a map holds one of each). */
export function duplicateModel(form: SettingsForm): string | null {
  const seen = new Set<string>();
  for (const row of form.prices) {
    const model = row.model.trim();
    if (model !== '' && seen.has(model)) return model;
    seen.add(model);
  }
  return null;
}

/** The form's field an error from Go is about: Go names the settings' JSON field ("contextLengths"). */
export function formField(goField: string | undefined): Field | undefined {
  switch (goField) {
    case undefined:
      return undefined;
    case 'contextLengths':
      return 'prices';
    case 'checkpointLimitMb':
    case 'checkpointExclude':
      return 'checkpoints';
  }
  return (FIELDS as readonly string[]).includes(goField) ? (goField as Field) : undefined;
}
