// The window's continuous motion — a working spinner, the dot that waits
// for the person, the caret of a reply being written — moves in steps on
// one clock, TICK_MS apart, and only while something on the screen moves.
//
// A CSS animation asks the engine for a frame 60 times a second. WebKitGTK
// without a GPU (Wails' default on Linux) lays out and paints each of them
// on the CPU: a task's two spinners (the status line's, the sidebar's) cost
// the app 15–30% of a core for as long as it ran. Ten steps a second look
// the same and cost a third of that.

/** The clock's period (ms): a spinner's eighth of a turn. */
export const TICK_MS = 100;

type Tick = (tick: number) => void;

const listeners = new Set<Tick>();
let timer: ReturnType<typeof setInterval> | undefined;
let count = 0;

/** The preference the clock follows, watched for changes, and the matchMedia that made it. */
let watched: { of: typeof matchMedia; query: MediaQueryList } | null = null;

/** The "less motion" preference, watched from its first use on: a change applies at once. */
function motionQuery(): MediaQueryList | null {
  if (typeof matchMedia !== 'function') return null;
  if (watched?.of !== matchMedia) {
    watched?.query.removeEventListener?.('change', onPreference);
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    query.addEventListener?.('change', onPreference);
    watched = { of: matchMedia, query };
  }
  return watched.query;
}

/** Whether the person asked for less motion: then nothing steps. */
function reducedMotion(): boolean {
  return !!motionQuery()?.matches;
}

function start(): void {
  timer ??= setInterval(() => {
    count++;
    listeners.forEach((l) => l(count));
  }, TICK_MS);
}

function stop(): void {
  if (timer === undefined) return;
  clearInterval(timer);
  timer = undefined;
}

/** The preference changed: every shape comes to rest, or starts moving again. */
function onPreference(): void {
  if (reducedMotion()) {
    stop();
    listeners.forEach((l) => l(0));
  } else if (listeners.size > 0) {
    start();
  }
}

/**
 * Calls fn with the current tick now, and with each later one until the
 * returned function is called. The clock runs while anyone listens. For
 * a person who asked for less motion it stays still: fn gets tick 0 (each
 * shape at rest, the caret shown), and steps again only if they change
 * the setting back.
 */
export function onTick(fn: Tick): () => void {
  listeners.add(fn);
  if (reducedMotion()) fn(0);
  else {
    fn(count);
    start();
  }
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0) stop();
  };
}

/** Whether the clock is running (for tests). */
export function ticking(): boolean {
  return timer !== undefined;
}
