// @vitest-environment jsdom
// (the DOM its figures have always been measured in; the tests use happy-dom)
import { cleanup, render } from '@testing-library/react';
import { bench, describe } from 'vitest';
import { message, resetStores } from '../../test/fixtures';
import { useMessagesStore } from '../../stores/messages';
import { MessageList } from './MessageList';

// Not part of `npm test` (only *.test.* files are): `make bench` runs it
// through e2e/bench/run.sh and reports its figure; it never fails on a time.
const C = 'c';
const msgs = Array.from({ length: 10_000 }, (_, i) =>
  message(`m${i}`, C, { role: i % 2 === 0 ? 'user' : 'assistant', content: `Message number ${i}`, seq: i + 1 }),
);

describe('frontend.message_list', () => {
  bench(
    'frontend.message_list.render_10k_messages',
    () => {
      render(<MessageList conversationId={C} />);
    },
    {
      setup: () => {
        resetStores();
        const s = useMessagesStore.getState();
        s.beginLoad(C);
        s.finishLoad(C, msgs);
      },
      teardown: () => cleanup(),
    },
  );
});
