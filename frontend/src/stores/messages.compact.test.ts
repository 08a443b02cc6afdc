// At idle the window copies its messages anew, so that the collector can
// free the memory a long task scattered them over (see compactMessages):
// the copy must hold exactly what the store held, share none of its
// objects, and leave a store it cannot copy as it was.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { delta, message } from '../test/fixtures';
import { messageOf } from './messagesReducer';
import { useMessagesStore } from './messages';

const C = 'c';

beforeEach(() => useMessagesStore.getState().reset());

function loadWithStreamedReply() {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, [
    message('u', C, { role: 'user', content: 'List the files', seq: 1 }),
    message('a', C, { content: 'Step 1 of 2', seq: 2, toolCalls: [{ id: 'call', name: 'list_files', arguments: '{}' }] }),
    message('r', C, { content: '', seq: 3 }),
  ]);
  s.applyDeltas([delta(C, 'r', 0, 'All ', 2), delta(C, 'r', 4, 'done.', 3)]);
}

describe('compacting the messages', () => {
  it('holds the same messages in new objects', () => {
    loadWithStreamedReply();
    const before = useMessagesStore.getState().byConversation;
    const streamed = messageOf(before[C]!, 'r');
    expect(streamed?.content).toBe('All done.');

    useMessagesStore.getState().compact();

    const after = useMessagesStore.getState().byConversation;
    expect(after).toEqual(before);
    expect(after).not.toBe(before);
    expect(after[C]).not.toBe(before[C]);
    for (const id of ['u', 'a', 'r']) {
      expect(messageOf(after[C]!, id)).toEqual(messageOf(before[C]!, id));
      expect(messageOf(after[C]!, id)).not.toBe(messageOf(before[C]!, id));
    }
    expect(messageOf(after[C]!, 'a')?.toolCalls).not.toBe(messageOf(before[C]!, 'a')?.toolCalls);
  });

  it('goes on as before: a later delta and upsert land on the copy', () => {
    loadWithStreamedReply();
    useMessagesStore.getState().compact();
    const s = useMessagesStore.getState();
    s.applyDeltas([delta(C, 'r', 9, ' Bye.', 4)]);
    expect(messageOf(useMessagesStore.getState().byConversation[C]!, 'r')?.content).toBe('All done. Bye.');
    s.upsert(message('r', C, { content: 'All done. Bye!', seq: 3, rev: 5 }));
    expect(messageOf(useMessagesStore.getState().byConversation[C]!, 'r')?.content).toBe('All done. Bye!');
  });

  it('does not copy again, nor tell anyone, what has not changed since', () => {
    loadWithStreamedReply();
    useMessagesStore.getState().compact();
    const once = useMessagesStore.getState().byConversation;
    const heard = vi.fn();
    const stop = useMessagesStore.subscribe(heard);
    useMessagesStore.getState().compact();
    stop();
    expect(useMessagesStore.getState().byConversation).toBe(once);
    expect(heard).not.toHaveBeenCalled();

    useMessagesStore.getState().applyDeltas([delta(C, 'r', 9, ' Bye.', 4)]);
    const changed = useMessagesStore.getState().byConversation;
    useMessagesStore.getState().compact();
    expect(useMessagesStore.getState().byConversation).not.toBe(changed);
    expect(useMessagesStore.getState().byConversation).toEqual(changed);
  });

  it('does not copy messages only read from Go, which were parsed together', () => {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(C, [message('u', C, { role: 'user', content: 'List the files', seq: 1 })]);
    const read = useMessagesStore.getState().byConversation;
    useMessagesStore.getState().compact();
    expect(useMessagesStore.getState().byConversation).toBe(read);

    useMessagesStore.getState().upsert(message('a', C, { content: 'Listed.', seq: 2 }));
    const arrived = useMessagesStore.getState().byConversation;
    useMessagesStore.getState().compact();
    expect(useMessagesStore.getState().byConversation).not.toBe(arrived);
    expect(useMessagesStore.getState().byConversation).toEqual(arrived);
  });

  it('leaves a store it cannot copy as it was, and says so', () => {
    loadWithStreamedReply();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const cur = useMessagesStore.getState().byConversation;
    const odd = { ...cur, [C]: { ...cur[C]!, pendingDeltas: [() => 0] as never } };
    useMessagesStore.setState({ byConversation: odd });

    useMessagesStore.getState().compact();

    expect(useMessagesStore.getState().byConversation).toBe(odd);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not be copied'), expect.anything());
  });
});
