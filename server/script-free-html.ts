import type http from "node:http";

/**
 * Client report pages run no script: they are read-only HTML that works with JavaScript off, and their
 * Content-Security-Policy says `script-src 'none'` (lib/shares/headers.ts). Next still writes its
 * hydration scripts and script preloads into every page, which that policy would refuse one by one, each
 * a console error in the reader's browser. So the server takes them out of the HTML as it streams:
 *
 * - every `<script …>…</script>` element (the chunks, the RSC payload, the Turbopack bootstrap);
 * - every `<link>` that preloads a script (`rel="preload" as="script"`, `rel="modulepreload"`).
 *
 * The markup is React's, so it is regular: text and attribute values have `<` and `>` escaped, and a
 * script's body never holds `</script`. Chunks may end anywhere, even inside a tag or a UTF-8 character:
 * an undecided tail is held back until the next chunk. A page whose content arrived after its shell
 * (a Suspense boundary revealed by a script) would stay hidden without the script: report pages have none.
 */
export class ScriptStripper {
  private pending = "";
  private inScript = false;

  /** The HTML that can be written now, from everything pushed so far. */
  push(text: string): string {
    let input = this.pending + text;
    this.pending = "";
    let output = "";
    while (input.length > 0) {
      if (this.inScript) {
        const close = /<\/script\s*>/i.exec(input);
        if (!close) {
          // Only a partial "</script" at the very end matters; the rest of the body is dropped.
          this.pending = input.slice(Math.max(0, input.length - "</script  >".length));
          return output;
        }
        input = input.slice(close.index + close[0].length);
        this.inScript = false;
        continue;
      }
      const open = /<(script|link)(?=[\s/>])/i.exec(input);
      if (!open) {
        const held = partialTagStart(input);
        this.pending = input.slice(held);
        return output + input.slice(0, held);
      }
      output += input.slice(0, open.index);
      const end = input.indexOf(">", open.index);
      if (end < 0) {
        this.pending = input.slice(open.index);
        return output;
      }
      const tag = input.slice(open.index, end + 1);
      input = input.slice(end + 1);
      if (open[1]?.toLowerCase() === "script") this.inScript = !/\/>$/.test(tag);
      else if (!preloadsScript(tag)) output += tag;
    }
    return output;
  }

  /** What is left at the end of the document (an unfinished tag is written as it came, never a script's body). */
  end(): string {
    const rest = this.inScript ? "" : this.pending;
    this.pending = "";
    return rest;
  }
}

const TAG_NAMES = ["<script", "<link"];

/** Where a tag name that may still become `<script` or `<link` starts at the end of `text` (else its length). */
function partialTagStart(text: string): number {
  const last = text.lastIndexOf("<");
  if (last < 0) return text.length;
  const tail = text.slice(last).toLowerCase();
  return TAG_NAMES.some((name) => name.startsWith(tail)) ? last : text.length;
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>/]+))`, "i").exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "").toLowerCase() : null;
}

function preloadsScript(linkTag: string): boolean {
  const rel = (attribute(linkTag, "rel") ?? "").split(/\s+/);
  return rel.includes("modulepreload") || (rel.includes("preload") && attribute(linkTag, "as") === "script");
}

type WriteCallback = (error?: Error | null) => void;
type Chunk = string | Uint8Array;
type HeaderList = Record<string, unknown> | unknown[];

/** A header's value in writeHead's own list (an object, or a flat [name, value, …] array). */
function listed(headers: HeaderList, name: string): unknown {
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index += 2)
      if (String(headers[index]).toLowerCase() === name) return headers[index + 1];
    return undefined;
  }
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** writeHead's list without Content-Length. */
function withoutLength(headers: HeaderList): HeaderList {
  if (!Array.isArray(headers))
    return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== "content-length"));
  const kept: unknown[] = [];
  for (let index = 0; index < headers.length; index += 2)
    if (String(headers[index]).toLowerCase() !== "content-length") kept.push(headers[index], headers[index + 1]);
  return kept;
}

/**
 * Passes every HTML answer written to `res` through a ScriptStripper; other answers (the CSV, plain-text
 * 404s) go out untouched. The request must not ask for compression (the caller drops Accept-Encoding):
 * Next would otherwise compress before these bytes are seen. A stripped body is shorter than any length
 * announced for it, so an HTML answer's Content-Length is dropped when its headers go out (writeHead,
 * which Node's implicit headers and flushHeaders go through too); Node then sends it chunked, or counts
 * the one chunk of an end().
 */
export function stripScriptsFromHtml(res: http.ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => http.ServerResponse;
  const write = res.write.bind(res) as (chunk: Chunk, encoding?: BufferEncoding, callback?: WriteCallback) => boolean;
  const end = res.end.bind(res) as (
    chunk?: Chunk,
    encoding?: BufferEncoding,
    callback?: () => void,
  ) => http.ServerResponse;
  let stripper: ScriptStripper | null | undefined;
  const decoder = new TextDecoder("utf-8");
  /** Decided once, from the Content-Type set so far (or given to writeHead). */
  const stripperFor = (contentType: unknown = res.getHeader("content-type")) => {
    stripper ??= /^text\/html\b/i.test(String(contentType ?? "")) ? new ScriptStripper() : null;
    return stripper;
  };

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const list = rest.find((arg): arg is HeaderList => typeof arg === "object" && arg !== null);
    if (stripperFor(res.getHeader("content-type") ?? (list && listed(list, "content-type")))) {
      res.removeHeader("content-length");
      return writeHead(status, ...rest.map((arg) => (list && arg === list ? withoutLength(list) : arg)));
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;

  const text = (chunk: Chunk, encoding?: BufferEncoding) =>
    typeof chunk === "string" ? Buffer.from(chunk, encoding).toString("utf8") : decoder.decode(chunk, { stream: true });
  const split = (encodingOrCallback?: BufferEncoding | WriteCallback, callback?: WriteCallback) =>
    typeof encodingOrCallback === "function"
      ? { encoding: undefined, callback: encodingOrCallback }
      : { encoding: encodingOrCallback, callback };

  res.write = ((chunk: Chunk, encodingOrCallback?: BufferEncoding | WriteCallback, maybeCallback?: WriteCallback) => {
    const { encoding, callback } = split(encodingOrCallback, maybeCallback);
    const html = stripperFor();
    if (!html) return write(chunk, encoding, callback);
    return write(html.push(text(chunk, encoding)), "utf8", callback);
  }) as typeof res.write;

  res.end = ((
    chunk?: Chunk | (() => void),
    encodingOrCallback?: BufferEncoding | (() => void),
    maybeCallback?: () => void,
  ) => {
    if (typeof chunk === "function") return end(undefined, undefined, chunk) as never;
    const { encoding, callback } = split(
      encodingOrCallback as BufferEncoding | WriteCallback | undefined,
      maybeCallback,
    );
    const html = stripperFor();
    if (!html) return end(chunk, encoding, callback as (() => void) | undefined) as never;
    const last =
      (chunk === undefined || chunk === null ? "" : html.push(text(chunk, encoding))) +
      html.push(decoder.decode()) +
      html.end();
    return end(last, "utf8", callback as (() => void) | undefined) as never;
  }) as typeof res.end;
}
