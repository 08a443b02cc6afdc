import { memo, useEffect, useId, useState, type Ref } from 'react';
import { useMessagesStore } from '../../stores/messages';
import { resultOf } from '../../stores/messagesReducer';
import { useTasksStore } from '../../stores/tasks';
import { useToolOutputStore } from '../../stores/toolOutput';
import { formatDuration } from '../../lib/time';
import { ToolBody } from '../mcp/ToolBody';
import { callGist, callLabel, callState, type CallState } from './toolCall';
import { prettyJson } from '../../lib/json';
import type { TranscriptItem } from './transcript';

type ToolCallItem = Extract<TranscriptItem, { kind: 'toolCall' }>;

const TONES: Partial<Record<CallState, string>> = {
  failed: ' tool-row-error',
  cut_off: ' tool-row-error',
  denied: ' tool-row-muted',
  stopped: ' tool-row-muted',
  approval: ' tool-row-waiting',
  running: ' tool-row-running',
};

/** What a tool returned: the one place a result's body renders (with the images an MCP tool returned). */
export function ToolResultBody({ content }: { name: string; content: string }) {
  return <ToolBody text={content} />;
}

/** The time since the row saw the call running, ticking each second. */
function Elapsed() {
  const [start] = useState(() => Date.now());
  const [now, setNow] = useState(start);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span className="tool-elapsed">{formatDuration(now - start)}</span>;
}

/** A running command's latest output, as it arrives. */
function LiveOutput({ callId }: { callId: string }) {
  const text = useToolOutputStore((s) => s.byCall[callId] ?? '');
  if (text === '') return null;
  const lines = text.split('\n');
  const tail = lines.slice(-12).join('\n');
  return (
    <pre className="tool-body tool-live" aria-label="Output so far">
      {tail}
    </pre>
  );
}

/**
 * One row per tool call: what it is doing or how it ended, in words; it
 * expands to the call's arguments and its result.
 */
export const ToolCallRow = memo(function ToolCallRow({
  conversationId,
  item,
  rowRef,
  index,
}: {
  conversationId: string;
  item: ToolCallItem;
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
}) {
  const result = useMessagesStore((s) => {
    const conv = s.byConversation[conversationId];
    return conv && resultOf(conv, item.callId);
  });
  const task = useTasksStore((s) => (item.taskId ? s.byId[item.taskId] : undefined));
  const state = callState(item.callId, result, task);
  const [open, setOpen] = useState(false);
  const id = useId();
  const label = callLabel(item.name, state, callGist(item.name, item.args));
  const args = prettyJson(item.args);
  return (
    <div ref={rowRef} data-index={index} data-state={state} className={`tool-row${TONES[state] ?? ''}`}>
      <button type="button" className="tool-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        <span className="chevron" aria-hidden="true">
          ›
        </span>
        <span className="tool-label">{label}</span>
        {state === 'running' && <Elapsed />}
      </button>
      {state === 'running' && <LiveOutput callId={item.callId} />}
      {open && (
        <div id={id} className="tool-detail">
          <span className="tool-part">Arguments</span>
          <pre className="tool-body">{args === '' ? '(none)' : args}</pre>
          {result && (
            <>
              <span className="tool-part">Result</span>
              <ToolResultBody name={item.name} content={result.content} />
            </>
          )}
        </div>
      )}
    </div>
  );
});
