// Every test file: the fakes of Go's API and events.
import { vi } from 'vitest';

// One fake of the API and of the events module for every test file (see
// fakeApi.ts); a test that needs the real module says vi.unmock.
vi.mock('../api', async (importOriginal) => (await import('./fakeApi')).fakeApi(await importOriginal()));
vi.mock('../events', async (importOriginal) => (await import('./fakeApi')).fakeEvents(await importOriginal()));
