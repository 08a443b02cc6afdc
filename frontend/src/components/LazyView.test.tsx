import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyComponent, lazyView, prefetchLazyViews } from './LazyView';

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

describe('lazyView', () => {
  it('says what is loading until the view has come, then shows it', async () => {
    let arrive!: () => void;
    const View = lazyView<{ name: string }>(
      'the greeting',
      () => new Promise((resolve) => (arrive = () => resolve(Greeting))),
    );
    render(<View name="Ada" />);
    const loading = screen.getByText('Loading the greeting…');
    expect(loading).toHaveAttribute('aria-live', 'polite');
    expect(screen.queryByText('Hello, Ada')).not.toBeInTheDocument();

    await act(async () => arrive());
    expect(await screen.findByText('Hello, Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading the greeting…')).not.toBeInTheDocument();
  });

  it('shows a preloaded view at once, with no loading line', async () => {
    const View = lazyView<{ name: string }>('the greeting', () => Promise.resolve(Greeting));
    await View.preload();
    render(<View name="Grace" />);
    expect(screen.getByText('Hello, Grace')).toBeInTheDocument();
    expect(screen.queryByText(/Loading/)).not.toBeInTheDocument();
  });

  it('a view made with prefetch comes with the prefetch (after the first paint); the others on first showing', async () => {
    const Soon = lazyView<{ name: string }>('the greeting', () => Promise.resolve(Greeting), { prefetch: true });
    const Later = lazyView<{ name: string }>('the other greeting', () => Promise.resolve(Greeting));
    await prefetchLazyViews();
    render(
      <>
        <Soon name="Grace" />
        <Later name="Ada" />
      </>,
    );
    expect(screen.getByText('Hello, Grace')).toBeInTheDocument();
    expect(screen.getByText('Loading the other greeting…')).toBeInTheDocument();
    expect(await screen.findByText('Hello, Ada')).toBeInTheDocument();
  });
});

describe('lazyComponent', () => {
  it('holds back the whole part of the page above it until its code has come', async () => {
    let arrive!: () => void;
    const Part = lazyComponent<{ name: string }>(() => new Promise((resolve) => (arrive = () => resolve(Greeting))));
    render(
      <Suspense fallback={<p>Loading the page…</p>}>
        <p>Title</p>
        <Part name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Loading the page…')).toBeInTheDocument();
    expect(screen.queryByText('Title')).not.toBeInTheDocument();

    await act(async () => arrive());
    expect(await screen.findByText('Hello, Ada')).toBeInTheDocument();
    expect(screen.getByText('Title')).toBeInTheDocument();
  });
});
