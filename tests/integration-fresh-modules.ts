import { afterAll, vi } from "vitest";

/**
 * The integration files share a worker process (isolate: false in vitest.config.mts) but not the app's
 * state: this setup file runs before each of them and gives the file what a process of its own would.
 *
 * - The run's starting environment: a file sets variables at its top level for the configuration to read.
 * - Fresh modules of the project (vi.resetModules): the configuration, limiters, Better Auth and the
 *   analyzer read the environment once and keep what they built, so each file loads them anew. Packages
 *   (node_modules) stay loaded: compiling them again for every file was a third of the signed-in suites'
 *   CPU (docs/testing.md).
 * - No process singletons: the app keeps the database, the analyzer's pool and browser, the shutdown hooks
 *   and the trusted-server flag on globalThis under registered `linklens.` symbols (one per process, shared
 *   with the route bundle), which fresh modules would otherwise find from the file before.
 *
 * After the file, what its process would have done on SIGTERM: the shutdown hooks close a pool or a browser
 * the file left open.
 */
const SHUTDOWN_DEADLINE_MS = 20_000;

const STARTING_ENV = Symbol.for("linklens.test.startingEnvironment");
const holder = globalThis as { [STARTING_ENV]?: NodeJS.ProcessEnv; [key: symbol]: unknown };
// The first file's setup sees the environment Vitest started the worker with.
const startingEnvironment = (holder[STARTING_ENV] ??= { ...process.env });

for (const name of Object.keys(process.env)) if (!(name in startingEnvironment)) delete process.env[name];
Object.assign(process.env, startingEnvironment);
for (const symbol of Object.getOwnPropertySymbols(globalThis)) {
  if (symbol !== STARTING_ENV && Symbol.keyFor(symbol)?.startsWith("linklens.")) delete holder[symbol];
}
vi.resetModules();

afterAll(async () => {
  const { runShutdownHooks } = await import("@/lib/shutdown");
  const failures = await runShutdownHooks(SHUTDOWN_DEADLINE_MS);
  if (failures.length > 0) throw new Error(`closing what the file left open failed: ${failures.join("; ")}`);
});
