// The start's one call to Go, made once: the entry (main.tsx) asks before
// it loads the app, so Go reads the first screen while the app's code
// loads, and the app takes the answer when it starts (startApp).
import * as api from '../api';
import type { FirstScreen } from '../api/types';

let call: Promise<FirstScreen> | null = null;

/** The first screen: the first caller asks Go, the next ones share its answer. */
export function firstScreenOnce(): Promise<FirstScreen> {
  call ??= api.firstScreen();
  return call;
}

/** For tests: the next start asks again. */
export function forgetFirstScreen(): void {
  call = null;
}
