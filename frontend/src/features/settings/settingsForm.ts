// The settings form's state and its conversion to and from chat.Settings.
// Pure, unit-tested. Fields the form does not edit (the provider, saved
// through SaveProvider, and whatever later versions add) are
// carried through untouched.
import type { ConversationMode, ReasoningEffort, Risk, Settings } from '../../api/types';
import { REASONING_EFFORTS, RISK_LOCAL_NETWORK, RISKS } from '../../api/types';

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
/** The efforts Go takes, in the order the menu shows them. */
export const EFFORTS: readonly ReasoningEffort[] = REASONING_EFFORTS;

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

export function blank(v: string): boolean {
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
