import type { Task } from '../../api/types';
import { isTerminal } from '../../api/types';
import { formatDuration, timeValue } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { PulseDot, Spinner } from '../../components/Motion';
import { useRef } from 'react';
import { useMessagesStore } from '../../stores/messages';
import { useActiveTask, useLatestTask } from '../../stores/tasks';
import { formatCount, usageBreakdown } from '../tasks/format';
import { TaskMeta } from '../tasks/TaskMeta';
import { currentStep } from '../plan/plan';

const PAUSE_REASONS: Record<string, string> = {
  steps: 'step limit reached',
  time: 'time limit reached',
  cost: 'spending limit reached',
  repeat: 'the agent repeated itself',
};

/**
 * What the agent is doing, in words; writing: the model's reply is
 * streaming in (it is not thinking any more).
 */
export function describeTask(task: Task | undefined, writing = false): string {
  if (!task) return 'Ready';
  const phase = phaseOf(task, writing);
  if (phase) return phase;
  // A string switch, so statuses newer than this file read sensibly too.
  const status: string = task.status;
  switch (status) {
    case 'running':
      return writing ? 'Writing…' : 'Working…';
    case 'thinking':
      return writing ? 'Writing…' : 'Thinking…';
    case 'tool_executing':
      return `Running ${task.currentTool || 'a tool'}…`;
    case 'waiting_user':
      return 'Waiting for your answer';
    case 'waiting_approval':
      return `Waiting for your approval: ${task.pendingApproval?.tool || task.currentTool || 'a tool'}`;
    case 'paused': {
      const reason = PAUSE_REASONS[(task as { pauseReason?: string }).pauseReason ?? ''];
      return reason ? `Paused: ${reason}` : 'Paused';
    }
    case 'interrupted':
      return 'Interrupted';
    case 'completed':
      return task.mode === 'chat' ? 'Replied' : 'Completed';
    case 'cancelled':
      return 'Stopped';
    case 'error':
      // Why is said once, in the card under the transcript.
      return 'Failed';
    default:
      return isTerminal(task.status) ? 'Ended' : 'Working…';
  }
}

/**
 * Where an agent task is in think → plan → execute → reflect, while the
 * model works: Checking the result… (a reflection), the plan's current
 * step, or Planning… until the first answer of a task with no plan yet.
 */
function phaseOf(task: Task, writing: boolean): string | null {
  if (task.mode === 'chat' || (task.status !== 'thinking' && task.status !== 'running')) return null;
  if (task.reflecting) return 'Checking the result…';
  if (task.plan) {
    const step = currentStep(task.plan);
    return step ? `${step.title}…` : null;
  }
  // Only until the first step's answer: once it has come (the task runs
  // its tools, or completes), the task is working, not planning.
  const firstAsk = task.stepCount === 0 || (task.stepCount === 1 && task.status === 'thinking');
  return firstAsk && !writing ? 'Planning…' : null;
}

/** After this long without a word from the model, the status line counts the silence. */
export const SILENCE_SHOWN_MS = 5000;

/**
 * Since when the model has sent nothing while the task thinks: the step's
 * start (as this window saw it) or the last delta of its reply, text or
 * thinking; 0 when the task is not waiting on the model. Computed from the
 * events the window already gets, so Go publishes nothing per second.
 */
function useSilentSince(conversationId: string, task: Task | undefined): number {
  const streamed = useMessagesStore((s) => {
    const live = s.byConversation[conversationId]?.live;
    let n = 0;
    for (const m of Object.values(live ?? {})) {
      const reasoning = (m as { reasoning?: unknown }).reasoning;
      n += m.content.length + (typeof reasoning === 'string' ? reasoning.length : 0);
    }
    return n;
  });
  const step = task?.status === 'thinking' ? `${task.id}:${task.stepCount}` : '';
  const since = useRef({ step: '', streamed: 0, at: 0 });
  if (since.current.step !== step || since.current.streamed !== streamed) {
    since.current = { step, streamed, at: step ? Date.now() : 0 };
  }
  return since.current.at;
}

type Tone = 'idle' | 'live' | 'waiting' | 'done' | 'stopped' | 'error';

function toneOf(task: Task | undefined): Tone {
  if (!task) return 'idle';
  const status: string = task.status;
  switch (status) {
    case 'running':
    case 'thinking':
    case 'tool_executing':
      return 'live';
    case 'completed':
      return 'done';
    case 'cancelled':
      return 'stopped';
    case 'error':
      return 'error';
    default:
      // waiting_user, waiting_approval, paused, interrupted: the person's turn.
      return isTerminal(task.status) ? 'done' : 'waiting';
  }
}

function compactTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k` : formatCount(n);
}

function StatusIcon({ tone }: { tone: Tone }) {
  switch (tone) {
    case 'live':
      return <Spinner className="status-spinner" />;
    case 'waiting':
      return <PulseDot className="status-dot" />;
    case 'done':
      return (
        <svg className="status-glyph" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
          <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      );
    case 'stopped':
      return <span className="status-square" aria-hidden="true" />;
    case 'error':
      return (
        <svg className="status-glyph" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
          <circle cx="8" cy="8" r="6.2" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M8 4.8v3.8M8 10.9v.2" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
      );
    default:
      return null;
  }
}

/**
 * The indicator below the last message: what the conversation's task is
 * doing (Thinking…, Running a tool…, Waiting for your answer), its step,
 * elapsed time and tokens, updating live; after it ends, how it ended.
 * With no task it says "Ready" to screen readers only.
 */
export function StatusLine({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  const task = active ?? latest;
  const live = !!task && !isTerminal(task.status);
  const now = useNow(live);
  const silentSince = useSilentSince(conversationId, task);
  const silence = live && silentSince > 0 ? now - silentSince : 0;
  // A reply streaming in (streamed messages are the conversation's live ones).
  const writing = useMessagesStore((s) => {
    const live = s.byConversation[conversationId]?.live;
    return !!live && Object.values(live).some((m) => m.streaming && m.role === 'assistant' && m.content !== '');
  });

  let elapsed = '';
  if (task) {
    const start = timeValue(task.startedAt);
    const end = live ? now : timeValue(task.endedAt);
    if (start > 0 && end >= start) elapsed = live ? `${formatDuration(end - start)} so far` : `took ${formatDuration(end - start)}`;
  }
  const totalTokens = task?.usage?.totalTokens ?? 0;
  // Prompt caching (Claude): how much of the prompt came from the cache.
  const cachedTokens = task?.usage?.cacheReadTokens ?? 0;
  const tone = toneOf(task);
  // A chat reply is one step: no agent chrome (steps, working time).
  const agent = task?.mode !== 'chat';

  return (
    <div className={`status-line status-${tone}`} role="status" aria-live="polite">
      <StatusIcon tone={tone} />
      {silence >= SILENCE_SHOWN_MS ? (
        <span className="status-text">
          Waiting for the model
          {/* The count ticks every second: not announced. */}
          <span aria-hidden="true"> · {Math.floor(silence / 1000)} s</span>
        </span>
      ) : (
        <span className="status-text">{describeTask(task, writing && live)}</span>
      )}
      {agent && task && task.stepCount > 0 && <span className="status-meta">Step {task.stepCount}</span>}
      {elapsed && (
        // The clock ticks every second: not announced.
        <span className="status-meta status-clock" aria-hidden={live ? 'true' : undefined}>
          {elapsed}
        </span>
      )}
      {totalTokens > 0 && (
        <span className="status-meta" title={usageBreakdown(task?.usage)}>
          {compactTokens(totalTokens)} tokens
          {cachedTokens > 0 && ` (${compactTokens(cachedTokens)} cached)`}
        </span>
      )}
      {task && <TaskMeta task={task} parts={agent ? ['cost', 'active'] : ['cost']} />}
    </div>
  );
}
