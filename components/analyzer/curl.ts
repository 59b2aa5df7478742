import type { DemoAnalyzeRequest } from "@/lib/api/schemas";

/** POSIX shell single-quoting: everything literal, a ' becomes '\'' . */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The exact API call the page made, ready to paste into a terminal. */
export function curlCommand(origin: string, request: DemoAnalyzeRequest): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/demo/analyze`)}`,
    `  -H 'Content-Type: application/json'`,
    `  --data-raw ${shellQuote(JSON.stringify(request))}`,
  ].join(" \\\n");
}
