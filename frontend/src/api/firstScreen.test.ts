import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { firstScreen } from './index';
import { CONVERSATION_PAGE, MESSAGE_PAGE } from './pageSizes';

vi.unmock('./index');

// The page asks Go for its first screen as it is parsed (vite.config.ts)
// and leaves the answer on window.errandFirstScreen for firstScreen().
type Page = { go?: unknown; errandFirstScreen?: Promise<unknown> };
const page = globalThis as Page;

function screenListing(title: string) {
  return { status: { ready: true }, conversations: { items: [{ id: title, title }], nextCursor: '' } };
}

function bindFirstScreen(answer: unknown) {
  vi.stubGlobal('window', globalThis); // the bindings call window.go
  const bound = vi.fn().mockResolvedValue(answer);
  page.go = { app: { Health: { FirstScreen: bound } } };
  return bound;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete page.go;
  delete page.errandFirstScreen;
});

describe('firstScreen', () => {
  it('shows what the page asked for while it loaded, then asks Go again for later reads', async () => {
    const bound = bindFirstScreen(screenListing('asked later'));
    page.errandFirstScreen = Promise.resolve(screenListing('asked early'));

    expect((await firstScreen()).conversations?.items.map((c) => c.title)).toEqual(['asked early']);
    expect(bound).not.toHaveBeenCalled();

    expect((await firstScreen()).conversations?.items.map((c) => c.title)).toEqual(['asked later']);
    expect(bound).toHaveBeenCalledWith(CONVERSATION_PAGE, MESSAGE_PAGE);
  });

  it('asks Go when the page did not ask', async () => {
    const bound = bindFirstScreen(screenListing('asked now'));

    expect((await firstScreen()).conversations?.items.map((c) => c.title)).toEqual(['asked now']);
    expect(bound).toHaveBeenCalledTimes(1);
  });

  it("says why the page's own ask failed", async () => {
    bindFirstScreen(screenListing('unused'));
    const failed = Promise.reject(new Error('database is locked'));
    failed.catch(() => {});
    page.errandFirstScreen = failed;

    const err = await firstScreen().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('database is locked');
  });
});
