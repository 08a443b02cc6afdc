import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../api';
import { CONVERSATION_PAGE, MESSAGE_PAGE } from '../../api/pageSizes';
import { useAppStore } from '../../stores/app';
import { useComposerFiles } from '../../stores/composerFiles';
import { useConfirmStore } from '../../stores/confirm';
import { useConversationsStore } from '../../stores/conversations';
import { useDraftsStore } from '../../stores/drafts';
import { useMessagesStore } from '../../stores/messages';
import { useNoticesStore } from '../../stores/notices';
import { openSettings } from '../../stores/settingsView';
import { useTasksStore } from '../../stores/tasks';
import { message, resetStores, summary, task } from '../../test/fixtures';
import { startEditing, useBranchUI } from '../branches/state';
import { useSearchDialog } from '../search/searchDialog';
import { inFirstScreenShape } from './firstScreenShape';
import { keepFirstScreen, QUIET_MS } from './keepFirstScreen';

/** The window as a start leaves it: the newest conversation open at its end, the list at its top, nothing typed or open. */
function showPlainFirstScreen(): HTMLElement {
  useAppStore.getState().setStartup('ready');
  useConversationsStore.getState().setAll([summary('c1'), summary('c2')]);
  useConversationsStore.getState().select('c1');
  useMessagesStore.getState().beginLoad('c1');
  useMessagesStore.getState().finishLoad('c1', [message('m1', 'c1')]);
  const root = document.createElement('div');
  root.id = 'root';
  // The test DOM's scrollers are 800 px high (setupDom): this transcript is 1600 px, scrolled to its end.
  root.innerHTML =
    '<nav class="conv-list-wrap"><ul style="height: 100px"></ul></nav>' +
    '<div class="message-scroll"><div style="height: 1600px"><p>a reply</p></div></div>' +
    '<textarea></textarea><button aria-expanded="false">Plan</button>';
  document.body.append(root);
  root.querySelector('.message-scroll')!.scrollTop = 800;
  return root;
}

beforeEach(() => {
  resetStores();
  useBranchUI.setState({ branchFrom: null, variationsOf: null, editing: null });
  useSearchDialog.setState({ open: false });
  useConfirmStore.setState({ request: null, resolve: null });
});

afterEach(() => {
  document.getSelection()?.removeAllRanges();
  document.body.innerHTML = '';
});

describe('inFirstScreenShape', () => {
  it('says yes for the plain first screen', () => {
    expect(inFirstScreenShape(showPlainFirstScreen())).toBe(true);
  });

  const notInShape: Array<[string, (root: HTMLElement) => void]> = [
    ['the start is not done', () => useAppStore.getState().setStartup('loading')],
    ['another conversation than the newest is open', () => useConversationsStore.getState().select('c2')],
    ['the list is filtered', () => useConversationsStore.getState().setSearch({ query: 'x', archived: false, ids: [], cursor: '', loading: false })],
    ['a task works in another conversation', () => useTasksStore.getState().apply(task('t1', 'c2', { status: 'running' }))],
    ['a message waits as queued', () => useMessagesStore.getState().upsert(message('m2', 'c1', { delivery: 'queued' }))],
    ['the conversation is being read again', () => useMessagesStore.getState().beginLoad('c1')],
    ['a draft is kept', () => useDraftsStore.getState().setDraft('c1', 'half a thought')],
    ['a file waits in the composer', () => useComposerFiles.getState().add('c1', [{ key: 'k', name: 'a.txt', size: 1, state: 'ready' }])],
    ['the settings are open', () => openSettings()],
    ['the search is open', () => useSearchDialog.getState().show()],
    ['a message is being edited', () => startEditing('m1')],
    ['a question waits for a confirmation', () => void useConfirmStore.setState({ request: { title: 'Delete?', text: '', confirmLabel: 'Delete', cancelLabel: 'Keep' } })],
    ['a notice shows', () => useNoticesStore.getState().push('info', 'Saved')],
    ['the transcript is scrolled up', (root) => void (root.querySelector('.message-scroll')!.scrollTop = 300)],
    ['the list is scrolled down', (root) => void (root.querySelector('.conv-list-wrap')!.scrollTop = 40)],
    ['a field holds text', (root) => void (root.querySelector('textarea')!.value = 'typed')],
    ['a menu is open', (root) => root.insertAdjacentHTML('beforeend', '<div role="menu"></div>')],
    ['a fold is open', (root) => root.querySelector('button')!.setAttribute('aria-expanded', 'true')],
    ['a view is loading', (root) => root.insertAdjacentHTML('beforeend', '<p class="lazy-loading">Loading Settings…</p>')],
    ['a modal is open outside the root', () => document.body.insertAdjacentHTML('beforeend', '<div aria-modal="true"></div>')],
    [
      'text is selected',
      (root) => {
        const range = document.createRange();
        range.selectNodeContents(root.querySelector('p')!);
        document.getSelection()!.addRange(range);
      },
    ],
  ];

  it.each(notInShape)('says no when %s', (_, change) => {
    const root = showPlainFirstScreen();
    change(root);
    expect(inFirstScreenShape(root)).toBe(false);
  });
});

describe('keepFirstScreen', () => {
  let stop = () => {};
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestIdleCallback', 'cancelIdleCallback'] });
    vi.mocked(api.saveFirstScreen).mockResolvedValue(undefined);
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  /** The window stays quiet: the wait after the last change, then its idle time. */
  async function quiet() {
    await Promise.resolve(); // the DOM's changes are reported
    vi.advanceTimersByTime(QUIET_MS);
    vi.runOnlyPendingTimers();
    await Promise.resolve();
  }

  it('saves the first screen once the window has been quiet, and not before', async () => {
    const root = showPlainFirstScreen();
    stop = keepFirstScreen(root);
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(api.saveFirstScreen).not.toHaveBeenCalled();

    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(1);
    expect(api.saveFirstScreen).toHaveBeenCalledWith({
      html: expect.stringContaining('a reply'),
      width: innerWidth,
      height: innerHeight,
      listLimit: CONVERSATION_PAGE,
      messageLimit: MESSAGE_PAGE,
    });
  });

  it('does not save the same markup twice, and saves it again once it changed', async () => {
    const root = showPlainFirstScreen();
    stop = keepFirstScreen(root);
    await quiet();
    useDraftsStore.getState().setDraft('c2', 'elsewhere'); // a change that leaves the screen as it is
    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(1);

    root.querySelector('p')!.textContent = 'a longer reply';
    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(2);
    expect(vi.mocked(api.saveFirstScreen).mock.calls[1]![0].html).toContain('a longer reply');
  });

  it('does not save while a task works, and saves once it has ended', async () => {
    const root = showPlainFirstScreen();
    useTasksStore.getState().apply(task('t1', 'c1', { status: 'running' }));
    stop = keepFirstScreen(root);
    await quiet();
    expect(api.saveFirstScreen).not.toHaveBeenCalled();

    useTasksStore.getState().apply(task('t1', 'c1', { status: 'completed' }));
    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(1);
  });

  it('does not look at the window again for a compaction of its messages, which changes nothing shown', async () => {
    const root = showPlainFirstScreen();
    useMessagesStore.getState().upsert(message('m2', 'c1', { content: 'from a task' }));
    stop = keepFirstScreen(root);
    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);

    const before = useMessagesStore.getState().byConversation;
    useMessagesStore.getState().compact();
    expect(useMessagesStore.getState().byConversation).not.toBe(before);
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(0);

    useMessagesStore.getState().upsert(message('m3', 'c1', { content: 'one more' }));
    expect(vi.getTimerCount()).toBe(1);
  });

  it('tries again at the next quiet moment after a failed save, and says so only in the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.mocked(api.saveFirstScreen).mockRejectedValueOnce(new Error('disk full'));
    const root = showPlainFirstScreen();
    stop = keepFirstScreen(root);
    await quiet();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(useNoticesStore.getState().items).toEqual([]);

    useDraftsStore.getState().setDraft('c2', 'elsewhere');
    await quiet();
    expect(api.saveFirstScreen).toHaveBeenCalledTimes(2);
  });
});
