import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as events from '../events';
import { Markdown, safeHref } from './Markdown';

const openExternal = vi.mocked(events.openExternal);

afterEach(() => {
  delete (window as { __pwned?: unknown }).__pwned;
});

const XSS = [
  'Here is <img src=x onerror="window.__pwned=1"> an image.',
  '',
  '<script>window.__pwned=2</script>',
  '',
  '[click](javascript:window.__pwned=3) <a href="javascript:window.__pwned=4">raw</a> <javascript:window.__pwned=5>',
  '[data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:x) [spaced]( JaVaScRiPt:alert(1) ) [tab](java\tscript:alert(1))',
  '![pic](javascript:window.__pwned=6) ![remote](https://example.com/x.png)',
  '',
  '<iframe src="javascript:window.__pwned=7"></iframe>',
  '',
  '<svg onload="window.__pwned=8"></svg>',
].join('\n');

describe('safeHref', () => {
  it('allows http, https, mailto and in-page anchors only', () => {
    expect(safeHref('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    expect(safeHref('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    expect(safeHref('#user-content-fn-1')).toBe('#user-content-fn-1');
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      'file:///etc/passwd',
      'wails://localhost/',
      '/relative/path',
      'relative.html',
      '#"><script>',
      '',
      undefined,
    ]) {
      expect(safeHref(bad), String(bad)).toBeNull();
    }
  });
});

describe('Markdown', () => {
  it('renders GFM: headings, emphasis, lists, tables, task lists, strikethrough', () => {
    const { container } = render(
      <Markdown
        text={'## Title\n\nSome **bold** and *em* and ~~old~~.\n\n1. one\n2. two\n\n- [x] done\n\n| a | b |\n|---|--:|\n| 1 | 2 |'}
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Title' })).toBeInTheDocument();
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('del')).toHaveTextContent('old');
    expect(container.querySelectorAll('ol li')).toHaveLength(2);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '2']);
    expect(screen.getByRole('checkbox')).toBeChecked();
  });

  it('every block gets GFM, each rendered on its own (the syntax is built once and shared)', () => {
    const blocks = ['| a |\n|---|\n| 1 |', '| b |\n|---|\n| 2 |', 'See ~~old~~ www.example.com now.', '| c |\n|---|\n| 3 |'];
    const { container } = render(<Markdown text={blocks.join('\n\n')} />);
    expect(screen.getAllByRole('table')).toHaveLength(3);
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '2', '3']);
    expect(container.querySelector('del')).toHaveTextContent('old');
    expect(screen.getByRole('link', { name: 'www.example.com' })).toHaveAttribute('href', 'http://www.example.com/');
  });

  it('keeps single line breaks, as a chat does', () => {
    const { container } = render(<Markdown text={'line one\nline two'} />);
    expect(container.querySelector('br')).not.toBeNull();
  });

  it('never turns model output into HTML, scripts or dangerous links', () => {
    const { container } = render(<Markdown text={XSS} />);
    for (const tag of ['img', 'script', 'iframe', 'svg', 'object', 'embed']) {
      expect(container.querySelector(tag), tag).toBeNull();
    }
    // The HTML is shown as text.
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(container.textContent).toContain('<script>window.__pwned=2</script>');
    // No element carries an event handler attribute.
    for (const el of Array.from(container.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name.startsWith('on'), `${el.tagName} ${attr.name}`).toBe(false);
      }
    }
    // Every link that survives is http(s).
    const links = Array.from(container.querySelectorAll('a'));
    expect(links.length).toBe(1); // the remote image, as a link
    for (const a of links) expect(a.getAttribute('href')).toMatch(/^https:\/\//);
    // Unsafe links keep their text.
    expect(screen.getByText('click')).toBeInTheDocument();
    expect(screen.getByText('click').closest('a')).toBeNull();
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('opens safe links outside the app window, without a referrer', () => {
    render(<Markdown text={'See [the docs](https://example.com/docs) or [mail](mailto:a@b.c).'} />);
    const a = screen.getByRole('link', { name: 'the docs' });
    expect(a).toHaveAttribute('href', 'https://example.com/docs');
    expect(a).toHaveAttribute('target', '_blank');
    expect(a).toHaveAttribute('rel', 'noreferrer noopener');
  });

  it('a click on a link opens the browser, not the app window', async () => {
    openExternal.mockClear();
    render(<Markdown text="See [the docs](https://example.com/docs)." />);
    await userEvent.click(screen.getByRole('link', { name: 'the docs' }));
    expect(openExternal).toHaveBeenCalledWith('https://example.com/docs');
  });

  it('images are never loaded: they become links', () => {
    const { container } = render(<Markdown text={'![a chart](https://example.com/chart.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Image: a chart' })).toHaveAttribute('href', 'https://example.com/chart.png');
  });

  it('code blocks: language label, highlighting and a copy button', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const code = 'func main() {\n\tfmt.Println("hi")\n}';
    const { container } = render(<Markdown text={'```go\n' + code + '\n```'} />);
    expect(container.querySelector('.code-lang')).toHaveTextContent('go');
    // Highlighting is loaded on demand: the highlighter, then Go's grammar
    // (on a busy machine their first import takes more than a second).
    await waitFor(() => expect(container.querySelector('code.hljs .hljs-keyword')).not.toBeNull(), { timeout: 60_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith(code);
    expect(await screen.findByText('Copied')).toBeInTheDocument();
  });

  it('an unknown language stays plain text', () => {
    const { container } = render(<Markdown text={'```nosuchlang\n<b>x</b>\n```'} />);
    expect(container.querySelector('pre')).toHaveTextContent('<b>x</b>');
    expect(container.querySelector('b')).toBeNull();
  });
});
