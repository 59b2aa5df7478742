import type http from "node:http";

/**
 * Sets `headers` on a response so that whatever writes it later (Next's renderer sets its own
 * Cache-Control on pages and cannot be told otherwise from a page) cannot change them: setHeader of those
 * names is ignored, and writeHead's own header list loses them.
 */
export function forceHeaders(res: http.ServerResponse, headers: Readonly<Record<string, string>>): void {
  const forced = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: number | string | readonly string[]) =>
    forced.has(name.toLowerCase()) ? res : setHeader(name, value)) as typeof res.setHeader;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const args = rest.map((arg) => (arg && typeof arg === "object" ? withoutForced(arg, forced) : arg));
    return writeHead(status, ...args);
  }) as typeof res.writeHead;
}

/** A writeHead header list (object, or flat [name, value, …] array) without the forced names. */
function withoutForced(headers: object, forced: ReadonlySet<string>): object {
  if (Array.isArray(headers)) {
    const kept: unknown[] = [];
    for (let index = 0; index < headers.length; index += 2)
      if (!forced.has(String(headers[index]).toLowerCase())) kept.push(headers[index], headers[index + 1]);
    return kept;
  }
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !forced.has(name.toLowerCase())));
}

/** Answers with `status` whatever the handler sets (Next renders the body; the status is ours). */
export function forceStatus(res: http.ServerResponse, status: number): void {
  Object.defineProperty(res, "statusCode", { get: () => status, set: () => {}, configurable: true });
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = ((_status: number, ...rest: unknown[]) =>
    writeHead(status, ...rest.filter((arg) => typeof arg !== "string"))) as typeof res.writeHead;
}
