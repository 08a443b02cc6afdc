// The settings form's state and its conversion to and from chat.Settings.
// Pure, unit-tested. Fields the form does not edit (other issues add
// provider settings and more) are carried through untouched.
import type { Risk, Settings } from '../../api/types';
import { RISKS } from '../../api/types';

export interface PriceRow {
  /** Stable React key; not saved. */
  key: number;
  model: string;
  input: string;
  output: string;
}

export interface SettingsForm {
  maxSteps: string;
  maxMinutes: string;
  maxCostUsd: string;
  stepDelayMs: string;
  autoApprove: Record<Risk, boolean>;
  prices: PriceRow[];
}

let nextKey = 1;
export function newPriceRow(model = '', input = '', output = ''): PriceRow {
  return { key: nextKey++, model, input, output };
}

function str(n: unknown): string {
  return typeof n === 'number' && Number.isFinite(n) ? String(n) : '';
}

export function formFromSettings(s: Settings): SettingsForm {
  const autoApprove = {} as Record<Risk, boolean>;
  for (const r of RISKS) autoApprove[r] = !!s.autoApprove?.[r];
  const prices = Object.entries(s.prices ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, p]) => newPriceRow(model, str(p?.inputPerMTok), str(p?.outputPerMTok)));
  return {
    maxSteps: str(s.limits?.maxSteps),
    maxMinutes: str(s.limits?.maxMinutes),
    maxCostUsd: str(s.limits?.maxCostUsd),
    stepDelayMs: str(s.stepDelayMs),
    autoApprove,
    prices,
  };
}

/** A number field's value; '' and junk become NaN (sent as null, which Go refuses with its reason). */
export function parseNumber(v: string): number {
  const t = v.trim();
  if (t === '') return Number.NaN;
  return Number(t);
}

/** What SaveSettings gets: what was loaded, with the form's fields on top. */
export function settingsFromForm(form: SettingsForm, loaded: Settings): Settings {
  const prices: Settings['prices'] = {};
  for (const row of form.prices) {
    prices[row.model.trim()] = { inputPerMTok: parseNumber(row.input), outputPerMTok: parseNumber(row.output) };
  }
  return {
    ...loaded,
    autoApprove: { ...loaded.autoApprove, ...form.autoApprove },
    limits: {
      ...loaded.limits,
      maxSteps: parseNumber(form.maxSteps),
      maxMinutes: parseNumber(form.maxMinutes),
      maxCostUsd: parseNumber(form.maxCostUsd),
    },
    stepDelayMs: parseNumber(form.stepDelayMs),
    prices,
  };
}

export type Field = 'maxSteps' | 'maxMinutes' | 'maxCostUsd' | 'stepDelayMs' | 'prices';

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
  const delay = parseNumber(form.stepDelayMs);
  if (!Number.isInteger(delay) || delay < 0 || delay > 60000) {
    return { field: 'stepDelayMs', message: 'The delay between steps must be a whole number from 0 to 60000 ms.' };
  }
  const seen = new Set<string>();
  for (const row of form.prices) {
    const model = row.model.trim();
    if (model === '') return { field: 'prices', message: 'Every price needs a model name.' };
    if (seen.has(model)) return { field: 'prices', message: `The model ${model} is listed twice.` };
    seen.add(model);
    const input = parseNumber(row.input);
    const output = parseNumber(row.output);
    if (!(input >= 0) || !(output >= 0)) {
      return { field: 'prices', message: `The prices of ${model} must be numbers of $0 or more.` };
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
