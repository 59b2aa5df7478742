import { format } from "node:util";
import { redactSecretPaths } from "@/lib/secret-paths";

const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/**
 * Everything the process prints through the console — Next's own messages (some name the request's URL:
 * "Failed to handle request for /r/…"), libraries' warnings, our start-up errors — passes
 * redactSecretPaths first, as the structured log does (lib/log.ts). Each call is formatted as the
 * console would (util.format), redacted, then printed as one string.
 */
export function redactConsole(target: Pick<Console, (typeof METHODS)[number]> = console): void {
  for (const method of METHODS) {
    const print = target[method].bind(target);
    target[method] = (...args: unknown[]) => print(redactSecretPaths(format(...args)));
  }
}
