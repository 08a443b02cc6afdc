// The entry: small, so that it runs as soon as the page is parsed. It asks
// Go for the first screen, then loads the app (a few hundred kB that take
// tens of milliseconds to load and run) while Go reads it.
import { markStart } from './lib/startTimings';
import { firstScreenOnce } from './stores/firstScreenCall';

markStart('module');
firstScreenOnce().catch(() => {}); // the app (startApp) takes the answer, or the failure
void import('./boot');
