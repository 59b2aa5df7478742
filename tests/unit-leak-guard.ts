import { afterAll, beforeAll, expect, vi } from "vitest";

/**
 * The unit files share one worker's modules and globals (isolate: false in vitest.config.mts), so a
 * file must leave the process as it found it. This setup file runs before each of them and fails the
 * file that leaves the environment, timers, fetch or process listeners changed for the next one.
 */
const WATCHED_EVENTS = ["uncaughtException", "unhandledRejection", "warning", "exit", "SIGINT", "SIGTERM"] as const;
// Set by a library the first time it loads, the same for every file after it: sharp points libvips home.
const SET_BY_LIBRARIES = new Set(["VIPSHOME"]);

const environment = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !SET_BY_LIBRARIES.has(name)));
const listenerCounts = () => WATCHED_EVENTS.map((event) => process.listenerCount(event));

// Noted before the file is imported: a test file that sets a variable at its top level is caught too.
const environmentBefore = environment();
const fetchBefore = globalThis.fetch;
// Noted after the imports: a module that registers its exit handler once, when first loaded, is not a leak.
let listenersBefore: number[] = [];
beforeAll(() => {
  listenersBefore = listenerCounts();
});

afterAll(() => {
  expect(vi.isFakeTimers(), "fake timers left installed (call vi.useRealTimers())").toBe(false);
  expect(environment(), "process.env changed").toEqual(environmentBefore);
  expect(globalThis.fetch === fetchBefore, "globalThis.fetch replaced and not restored").toBe(true);
  expect(listenerCounts(), `process listeners left behind (${WATCHED_EVENTS.join(", ")})`).toEqual(listenersBefore);
});
