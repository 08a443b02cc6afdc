import { bench, describe } from 'vitest';
import { message } from '../test/fixtures';
import { emptyConversationMessages, finishLoad } from './messagesReducer';

// Not part of `npm test` (only *.test.* files are): `make bench` runs it
// through e2e/bench/run.sh and reports its figure; it never fails on a time.
const msgs = Array.from({ length: 10_000 }, (_, i) => message(`m${i}`, 'c', { seq: 10_000 - i, content: `#${i}` }));

describe('frontend.store', () => {
  bench('frontend.store.load_10k_messages', () => {
    finishLoad(emptyConversationMessages(), msgs);
  });
});
