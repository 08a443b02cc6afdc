// Views that are not on the first screen load the first time they are
// shown, so that the window's start parses and runs only what it shows.
// Until a view's code has arrived (a few milliseconds: it is in the app)
// a small "Loading…" line says so to everyone, screen readers included.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';

const preloads: Array<() => Promise<void>> = [];
const prefetches: Array<() => Promise<void>> = [];

/** A component whose code comes the first time it renders (or is preloaded). */
export interface LazyComponent<P> {
  (props: P): ReactNode;
  /** Loads the component's code now, so that showing it waits for nothing. */
  preload: () => Promise<void>;
}

/**
 * A component whose code load() brings the first time it renders: until
 * then it suspends, and the nearest Suspense boundary above shows its
 * fallback. Once loaded, it renders at once.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (view) => {
        loaded = view;
      },
      (err: unknown) => {
        loading = null; // the next show tries again
        throw err;
      },
    ));
  // React takes a thenable that has already resolved as it is: a component
  // preloaded (or loaded once) is shown in the same render.
  const Loaded = lazy(() =>
    loaded ? (resolved({ default: loaded }) as Promise<{ default: ComponentType<P> }>) : preload().then(() => ({ default: loaded! })),
  );
  preloads.push(preload);
  return Object.assign((props: P) => <Loaded {...props} />, { preload });
}

/**
 * A view whose code load() brings the first time it is shown; label names
 * it in the loading line ("Loading Settings…"). Once loaded, the view
 * renders at once, with no fallback in between. A view with prefetch
 * (a small one, likely to be shown) loads once the first screen is
 * painted (prefetchLazyViews), so that even its first showing waits for
 * nothing.
 */
export function lazyView<P extends object>(
  label: string,
  load: () => Promise<ComponentType<P>>,
  { prefetch = false } = {},
): LazyComponent<P> {
  const Loaded = lazyComponent(load);
  if (prefetch) prefetches.push(Loaded.preload);
  function View(props: P) {
    return (
      <Suspense fallback={<Loading label={label} />}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return Object.assign(View, { preload: Loaded.preload });
}

function resolved<T>(value: T): PromiseLike<T> {
  return { then: (onFulfilled) => resolved(onFulfilled ? onFulfilled(value) : value) } as PromiseLike<T>;
}

/** The line shown while a view's code loads. */
export function Loading({ label }: { label: string }) {
  return (
    <p className="lazy-loading" aria-live="polite" aria-busy="true">
      Loading {label}…
    </p>
  );
}

/** Loads the code of the views made with prefetch (once the first screen is painted). */
export function prefetchLazyViews(): Promise<void> {
  return Promise.all(prefetches.map((p) => p())).then(() => undefined);
}

/** Loads every lazy view's and component's code (the tests, which render them at once). */
export function preloadLazyViews(): Promise<void> {
  return Promise.all(preloads.map((p) => p())).then(() => undefined);
}
