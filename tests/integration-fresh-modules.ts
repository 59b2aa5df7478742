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
 * - No registered process singletons: the database, the analyzer's pool and browser, the shutdown hooks and
 *   the trusted-server flag live on globalThis under registered symbols (one per process, shared with the
 *   route bundle), which fresh modules would otherwise find from the file before.
 *
 * After the file, what its process would have done at exit: the shutdown hooks (a pool or a browser the
 * file left open) and the exit handlers its modules registered (buffered log lines, a database lock).
 */
const PROCESS_SINGLETONS = [
  "linklens.analyzer",
  "linklens.database",
  "linklens.shutdownHooks",
  "linklens.trustedServer",
];
const SHUTDOWN_DEADLINE_MS = 20_000;

const STARTING_ENV = Symbol.for("linklens.test.startingEnvironment");
const holder = globalThis as { [STARTING_ENV]?: NodeJS.ProcessEnv };
// The first file's setup sees the environment Vitest started the worker with.
const startingEnvironment = (holder[STARTING_ENV] ??= { ...process.env });

for (const name of Object.keys(process.env)) if (!(name in startingEnvironment)) delete process.env[name];
Object.assign(process.env, startingEnvironment);
for (const key of PROCESS_SINGLETONS) delete (globalThis as Record<symbol, unknown>)[Symbol.for(key)];
vi.resetModules();

const exitHandlersBefore = new Set(process.listeners("exit"));

afterAll(async () => {
  const { runShutdownHooks } = await import("@/lib/shutdown");
  const failures = await runShutdownHooks(SHUTDOWN_DEADLINE_MS);
  for (const handler of process.listeners("exit")) {
    if (exitHandlersBefore.has(handler)) continue;
    process.off("exit", handler);
    handler.call(process, 0);
  }
  if (failures.length > 0) throw new Error(`closing what the file left open failed: ${failures.join("; ")}`);
});
