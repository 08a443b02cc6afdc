// How usage, spend, risks and task states read. Pure, unit-tested.
import { RISK_LOCAL_NETWORK, RISK_NETWORK, type PauseReason, type Risk, type Task, type Usage } from '../../api/types';

/** "$0.00", "<$0.0001", "$0.0042", "$0.042", "$1.25", "$1,234.50". */
export function formatCost(usd: number | undefined | null): string {
  const v = typeof usd === 'number' && Number.isFinite(usd) ? usd : 0;
  if (v <= 0) return '$0.00';
  if (v < 0.0001) return '<$0.0001';
  if (v < 0.01) return `$${v.toFixed(4)}`;
  if (v < 1) return `$${v.toFixed(3)}`;
  return `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

// One formatter for every count: Number.toLocaleString builds a new one on
// each call, and the status line formats its counts on every delta of a stream.
const GROUPED = new Intl.NumberFormat('en-US');

/** "12,345": a count with its thousands grouped. */
export function formatCount(v: number): string {
  return GROUPED.format(v);
}

/** "1 token", "12,345 tokens". */
export function formatTokens(n: number | undefined | null): string {
  const v = typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0;
  return `${formatCount(v)} ${v === 1 ? 'token' : 'tokens'}`;
}

/**
 * "Prompt 1,000 · completion 234 tokens", for a tooltip; with prompt caching
 * "Prompt 1,000 (800 cached, 150 written to the cache) · completion 234 tokens".
 */
export function usageBreakdown(u: Usage | undefined): string {
  if (!u) return '';
  const n = formatCount;
  const read = u.cacheReadTokens ?? 0;
  const write = u.cacheWriteTokens ?? 0;
  const cache = [read > 0 ? `${n(read)} cached` : '', write > 0 ? `${n(write)} written to the cache` : ''].filter(Boolean);
  const prompt = cache.length > 0 ? `${n(u.promptTokens)} (${cache.join(', ')})` : n(u.promptTokens);
  return `Prompt ${prompt} · completion ${n(u.completionTokens)} tokens`;
}

export interface RiskInfo {
  label: string;
  /** What a tool of this risk can do, honestly. */
  description: string;
  tone: 'info' | 'warn' | 'danger';
}

export function riskInfo(risk: Risk | string | undefined): RiskInfo {
  switch (risk) {
    case 'read_only':
      return {
        label: 'Read-only',
        description: 'It only looks: it lists, reads or searches files, or fetches a web page. It changes nothing.',
        tone: 'info',
      };
    case 'writes':
      return {
        label: 'Writes files',
        description: "It creates or changes files in this conversation's workspace folder.",
        tone: 'warn',
      };
    case 'destructive':
      return {
        label: 'Destructive',
        description:
          'It runs a command on your computer with your permissions. A command can change or delete any of your files, not only those in the workspace, and cannot be undone.',
        tone: 'danger',
      };
    case RISK_LOCAL_NETWORK:
      return {
        label: 'Local network',
        description:
          'Addresses on this computer or your local network lead to services not meant for the internet: a router, a printer, a database, another app. Errand asks every time.',
        tone: 'warn',
      };
    case RISK_NETWORK:
      return {
        label: 'Network',
        description:
          "Commands run without the network unless you allow it. Allowed, this task's commands can reach the internet and your local network until the task ends.",
        tone: 'warn',
      };
    default:
      return {
        label: risk ? `Unknown risk (${risk})` : 'Unknown risk',
        description: 'Errand does not know what this tool can do. Treat it as able to change anything.',
        tone: 'danger',
      };
  }
}

/** "step limit reached", for "Paused: …". */
export function pauseReasonText(reason: PauseReason | string | undefined): string {
  switch (reason) {
    case 'steps':
      return 'step limit reached';
    case 'time':
      return 'time limit reached';
    case 'cost':
      return 'spend limit reached';
    case 'repeat':
      return 'the agent repeated the same call';
    default:
      return reason ? reason : 'waiting for you to continue';
  }
}

export interface ComposerBlock {
  /** In the empty, disabled input. */
  placeholder: string;
  /** Below it: what to do, shown even when a draft hides the placeholder. */
  hint: string;
}

/**
 * Why the composer cannot take a new message while the task is in this
 * state (a card above it decides), or null when it can.
 */
export function composerBlocked(task: Pick<Task, 'status'> | undefined): ComposerBlock | null {
  switch (task?.status) {
    case 'interrupted':
      return {
        placeholder: 'Resume or dismiss the interrupted task above to write here',
        hint: 'The task interrupted when Errand closed still holds this conversation: resume or dismiss it above to start a new one.',
      };
    default:
      return null;
  }
}
