import { useMemo } from 'react';
import { parseObject } from '../../lib/json';
import { useMessagesStore } from '../../stores/messages';
import { messageOf, type ConversationMessages } from '../../stores/messagesReducer';

/** One field of a form's answer, as the person sees it. */
export interface AnswerField {
  name: string;
  label: string;
  value: string;
}

/** How far up the tree the question's call is looked for (other calls' results may come between). */
const MAX_HOPS = 32;

/** The arguments of the ask_user call callId, found among the answer's ancestors ('' when not held). */
function questionArgs(c: ConversationMessages | undefined, parentId: string, callId: string): string {
  let id = parentId;
  for (let hop = 0; c && id && hop < MAX_HOPS; hop++) {
    const m = messageOf(c, id);
    const call = m?.toolCalls?.find((tc) => tc.id === callId);
    if (call) return call.arguments ?? '';
    id = m?.parentId ?? '';
  }
  return '';
}

function shownValue(v: unknown): string {
  if (v === true) return 'Yes';
  if (v === false) return 'No';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * A form's answer (one JSON object of field values) as labelled fields, in
 * the form's order, labelled as the form was (its field names when the
 * question is not held); null for any other answer.
 */
export function answerFields(answer: string, questionArguments: string): AnswerField[] | null {
  const values = parseObject(answer);
  if (!values || Object.keys(values).length === 0) return null;
  const form = parseObject(questionArguments)?.fields;
  const labels = new Map<string, string>();
  if (Array.isArray(form)) {
    for (const f of form as { name?: unknown; label?: unknown }[]) {
      if (typeof f?.name === 'string') labels.set(f.name, typeof f.label === 'string' && f.label ? f.label : f.name);
    }
  }
  const order = [...labels.keys()].filter((n) => n in values);
  const rest = Object.keys(values).filter((n) => !labels.has(n));
  return [...order, ...rest].map((name) => ({ name, label: labels.get(name) ?? name, value: shownValue(values[name]) }));
}

/** Several choices' answer (a JSON array of strings) as one line; the answer itself otherwise. */
function answerText(answer: string, fields: AnswerField[] | null): string {
  if (fields) return fields.map((f) => `${f.label}: ${f.value}`).join('\n');
  try {
    const v: unknown = JSON.parse(answer);
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(', ');
  } catch {
    // Not JSON: the answer as typed.
  }
  return answer;
}

/** What an answer row shows: its fields (a form's answer) and its text (also what Copy copies). */
export function useShownAnswer(
  conversationId: string,
  item: { text: string; callId: string; parentId: string },
): { fields: AnswerField[] | null; text: string } {
  const args = useMessagesStore((s) => questionArgs(s.byConversation[conversationId], item.parentId, item.callId));
  return useMemo(() => {
    const fields = answerFields(item.text, args);
    return { fields, text: answerText(item.text, fields) };
  }, [item.text, args]);
}

/** The labelled fields of a form's answer. */
export function AnswerFields({ fields }: { fields: AnswerField[] }) {
  return (
    <dl className="answer-fields">
      {fields.map((f) => (
        <div key={f.name} className="answer-field">
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
