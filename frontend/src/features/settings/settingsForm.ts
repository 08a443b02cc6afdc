// The settings form's state and its conversion to and from chat.Settings.
// Pure, unit-tested. Fields the form does not edit (the provider, saved
// through SaveProvider, and whatever later versions add) are
// carried through untouched.
import type { ConversationMode, ReasoningEffort, Risk, Settings } from '../../api/types';
import { RISK_LOCAL_NETWORK, RISKS } from '../../api/types';

/** A row of the model table: a model's prices and context length. */
export interface PriceRow {
  /** Stable React key; not saved. */
  key: number;
  model: string;
  /** $ per 1M tokens; both blank means no price (the model counts as free). */
  input: string;
  output: string;
  /** Tokens; blank means not set. */
  context: string;
}

/** The reasoning efforts a model can be asked for. */
export const EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

function effortOf(v: unknown): ReasoningEffort | '' {
  return EFFORTS.find((e) => e === v) ?? '';
}

/**
 * The efforts with model's set to effort ('' removes it: Default sends
 * none), keyed in name order so that the same efforts compare equal.
 */
export function withEffort(
  efforts: Record<string, ReasoningEffort>,
  model: string,
  effort: ReasoningEffort | '',
): Record<string, ReasoningEffort> {
  const all: Record<string, ReasoningEffort> = { ...efforts };
  delete all[model];
  if (effort !== '') all[model] = effort;
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}

export interface SettingsForm {
  maxSteps: string;
  maxMinutes: string;
  maxCostUsd: string;
  stepDelayMs: string;
  /** Seconds a model call may wait for its first byte, and between two pieces of the reply. */
  modelFirstByteTimeoutSec: string;
  modelIdleTimeoutSec: string;
  autoApprove: Record<Risk, boolean>;
  prices: PriceRow[];
  /** Sent as reasoning_effort, by model name; a model absent sends none (the server's default). */
  reasoningEffort: Record<string, ReasoningEffort>;
  /** The agent's instructions as shown: the built-in text unless a custom one is stored. */
  systemPrompt: string;
  /** The checkpoint storage limit, in MB. */
  checkpointLimitMb: string;
  /** Folder names a snapshot skips, comma-separated. */
  checkpointExclude: string;
  /** A new conversation's mode. */
  defaultMode: ConversationMode;
  /** At most this many reflections before a task with a plan completes; 0 is off. */
  reflectionRounds: string;
  /** Auto mode may ask the model when its local decision is unsure. */
  autoAskModel: boolean;
}

/**
 * The stored auto-approvals without local_network, which is never approved
 * in advance (Go refuses to save it): kept, it would make every save fail.
 */
function approvableOnly(auto: Settings['autoApprove'] | undefined): Settings['autoApprove'] {
  const out: Record<string, boolean | undefined> = { ...auto };
  delete out[RISK_LOCAL_NETWORK];
  return out;
}

let nextKey = 1;
export function newPriceRow(model = '', input = '', output = '', context = ''): PriceRow {
  return { key: nextKey++, model, input, output, context };
}

function str(n: unknown): string {
  return typeof n === 'number' && Number.isFinite(n) ? String(n) : '';
}

/** The prompt as compared: the same text with other line ends or trailing spaces is the same prompt. */
function samePrompt(a: string, b: string): boolean {
  const norm = (t: string) => t.replace(/\r\n?/g, '\n').trim();
  return norm(a) === norm(b);
}

/** Whether the form's instructions are the built-in ones (so nothing custom is stored). */
export function isDefaultPrompt(text: string, defaultPrompt: string): boolean {
  return text.trim() === '' || (defaultPrompt !== '' && samePrompt(text, defaultPrompt));
}

/**
 * The form for the stored settings. defaultPrompt (DefaultSystemPrompt) is
 * shown when no custom prompt is stored, so the person sees what the agent
 * is told.
 */
export function formFromSettings(s: Settings, defaultPrompt = ''): SettingsForm {
  const autoApprove = {} as Record<Risk, boolean>;
  for (const r of RISKS) autoApprove[r] = !!s.autoApprove?.[r];
  const prices = s.prices ?? {};
  const contexts = s.contextLengths ?? {};
  const named = [...Object.keys(prices), ...Object.keys(contexts)];
  const models = [...new Set(named)].sort((a, b) => a.localeCompare(b));
  const rows = models.map((model) => {
    const p = prices[model];
    return newPriceRow(model, str(p?.inputPerMTok), str(p?.outputPerMTok), str(contexts[model]));
  });
  let reasoningEffort: Record<string, ReasoningEffort> = {};
  for (const [model, e] of Object.entries(s.reasoningEffort ?? {})) {
    reasoningEffort = withEffort(reasoningEffort, model, effortOf(e));
  }
  const custom = typeof s.systemPrompt === 'string' ? s.systemPrompt : '';
  return {
    maxSteps: str(s.limits?.maxSteps),
    maxMinutes: str(s.limits?.maxMinutes),
    maxCostUsd: str(s.limits?.maxCostUsd),
    stepDelayMs: str(s.stepDelayMs),
    modelFirstByteTimeoutSec: str(s.modelFirstByteTimeoutSec),
    modelIdleTimeoutSec: str(s.modelIdleTimeoutSec),
    autoApprove,
    prices: rows,
    reasoningEffort,
    systemPrompt: custom.trim() !== '' ? custom : defaultPrompt,
    checkpointLimitMb: str(s.checkpointLimitMb),
    checkpointExclude: (s.checkpointExclude ?? []).join(', '),
    defaultMode: s.defaultMode ?? 'auto',
    reflectionRounds: str(s.reflectionRounds ?? 2),
    autoAskModel: !!s.autoAskModel,
  };
}

/** The excluded folders as typed: names separated by commas or new lines. */
export function excludedFolders(text: string): string[] {
  return [...new Set(text.split(/[,\n]/).map((n) => n.trim()).filter((n) => n !== ''))];
}

/** A number field's value; '' and junk become NaN (sent as null, which Go refuses with its reason). */
export function parseNumber(v: string): number {
  const t = v.trim();
  if (t === '') return Number.NaN;
  return Number(t);
}

function blank(v: string): boolean {
  return v.trim() === '';
}

/**
 * What SaveSettings gets: what was loaded, with the form's fields on top.
 * Instructions equal to the built-in ones are stored as '' (so they follow
 * a newer Errand's built-in text).
 */
export function settingsFromForm(form: SettingsForm, loaded: Settings, defaultPrompt = ''): Settings {
  const prices: Settings['prices'] = {};
  const contextLengths: Record<string, number> = {};
  const { reasoningEffort } = form;
  for (const row of form.prices) {
    const model = row.model.trim();
    if (!(blank(row.input) && blank(row.output))) {
      prices[model] = { inputPerMTok: parseNumber(row.input), outputPerMTok: parseNumber(row.output) };
    }
    if (!blank(row.context)) contextLengths[model] = parseNumber(row.context);
  }
  return {
    ...loaded,
    autoApprove: { ...approvableOnly(loaded.autoApprove), ...form.autoApprove },
    limits: {
      ...loaded.limits,
      maxSteps: parseNumber(form.maxSteps),
      maxMinutes: parseNumber(form.maxMinutes),
      maxCostUsd: parseNumber(form.maxCostUsd),
    },
    stepDelayMs: parseNumber(form.stepDelayMs),
    prices,
    contextLengths,
    ...('reasoningEffort' in loaded || Object.keys(reasoningEffort).length > 0 ? { reasoningEffort } : {}),
    systemPrompt: isDefaultPrompt(form.systemPrompt, defaultPrompt) ? '' : form.systemPrompt,
    defaultMode: form.defaultMode,
    reflectionRounds: parseNumber(form.reflectionRounds),
    autoAskModel: form.autoAskModel,
    ...timeoutsFromForm(form, loaded),
    ...('checkpointLimitMb' in loaded || form.checkpointLimitMb !== ''
      ? { checkpointLimitMb: parseNumber(form.checkpointLimitMb), checkpointExclude: excludedFolders(form.checkpointExclude) }
      : {}),
  };
}

/** The model timeouts, when Go sent them or the person typed them (an older Go has none). */
function timeoutsFromForm(form: SettingsForm, loaded: Settings): Partial<Settings> {
  const out: Partial<Settings> = {};
  for (const field of ['modelFirstByteTimeoutSec', 'modelIdleTimeoutSec'] as const) {
    if (field in loaded || form[field] !== '') out[field] = parseNumber(form[field]);
  }
  return out;
}

export type Field =
  | 'maxSteps'
  | 'maxMinutes'
  | 'maxCostUsd'
  | 'stepDelayMs'
  | 'modelFirstByteTimeoutSec'
  | 'modelIdleTimeoutSec'
  | 'reflectionRounds'
  | 'prices'
  | 'systemPrompt'
  | 'checkpoints';

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
