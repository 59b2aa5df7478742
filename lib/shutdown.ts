import { raceTimeout } from "./timeout";

/**
 * Shutdown hooks shared across bundles: Next compiles route code into its own chunks, so module state
 * is not shared with the server entry. Hooks live on globalThis under a registered symbol.
 */
type Hook = () => Promise<void> | void;
const HOOKS_KEY = Symbol.for("linklens.shutdownHooks");
type GlobalWithHooks = typeof globalThis & { [HOOKS_KEY]?: Map<string, Hook> };

function hooks(): Map<string, Hook> {
  const holder = globalThis as GlobalWithHooks;
  holder[HOOKS_KEY] ??= new Map();
  return holder[HOOKS_KEY];
}

/** Registers (or replaces) a named resource closer, run once on graceful shutdown. */
export function onShutdown(name: string, hook: Hook): void {
  hooks().set(name, hook);
}

/** Runs every hook, each bounded by the deadline; never throws. */
export async function runShutdownHooks(deadlineMs: number): Promise<string[]> {
  const failures: string[] = [];
  await Promise.all(
    [...hooks()].map(async ([name, hook]) => {
      try {
        await raceTimeout(Promise.resolve().then(hook), deadlineMs, () => new Error("timed out"));
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  hooks().clear();
  return failures;
}
