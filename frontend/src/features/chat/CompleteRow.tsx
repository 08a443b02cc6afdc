import type { ReactNode, Ref } from 'react';
import { Markdown } from '../../components/Markdown';
import { useMessagesStore } from '../../stores/messages';
import { resultOf } from '../../stores/messagesReducer';
import { useTasksStore } from '../../stores/tasks';
import { FilesChanged } from '../checkpoints/FilesChanged';
import type { TranscriptItem } from './transcript';

type Item = Extract<TranscriptItem, { kind: 'complete' }>;

/**
 * What a task_complete call shows, from its result: nothing while the
 * result is checked against the plan, a folded line when the check found
 * the goal unmet (the task went on), else the Task complete card with the
 * files the task changed — and, when the check did not answer or found
 * something open, a note saying so.
 */
export function CompleteRow({
  conversationId,
  item,
  rowRef,
  index,
  badge,
}: {
  conversationId: string;
  item: Item;
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
  badge: ReactNode;
}) {
  const result = useMessagesStore((s) => {
    const conv = s.byConversation[conversationId];
    return conv && resultOf(conv, item.callId);
  });
  const active = useTasksStore((s) => s.activeByConversation[conversationId] === item.taskId);
  const outcome = result?.outcome ?? '';
  if (outcome === 'checking' || outcome === 'unmet' || (!result && active)) {
    return (
      <div ref={rowRef} data-index={index} className="complete-pending">
        {outcome === 'unmet' && <p className="muted completion-unmet">Not complete yet: the check of the result found more to do.</p>}
      </div>
    );
  }
  const note = outcome === 'unchecked' || outcome === 'incomplete' ? result?.content ?? '' : '';
  return (
    <div ref={rowRef} data-index={index} className="row row-agent">
      <div className="card card-complete">
        <span className="card-kicker">
          <span className="badge badge-complete">
            <svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true">
              <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            {outcome === 'incomplete' ? 'Ended with open issues' : 'Task complete'}
          </span>
          {badge}
        </span>
        <Markdown text={item.summary} />
        {note && (
          <div className="completion-note muted">
            <Markdown text={note} />
          </div>
        )}
        {item.taskId && <FilesChanged taskId={item.taskId} />}
      </div>
    </div>
  );
}
