/**
 * A page function as a script calling it with `args`. The function's own source goes to the page, so
 * anything a bundler wrapped it in must exist there: esbuild with keepNames (tsx, which runs the
 * benchmarks) wraps inner functions in `__name(fn, "name")`, a helper the page does not have, and a
 * page function then throws on its first line (the activity tracker was once silently missing so).
 */
export function pageScript(fn: (...args: never[]) => unknown, ...args: unknown[]): string {
  return `(() => { const __name = (target) => target; return (${fn.toString()})(${args.map((arg) => JSON.stringify(arg)).join(", ")}); })()`;
}
