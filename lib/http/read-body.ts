import { ApiError } from "@/lib/errors";
import { exceedsJsonDepth } from "@/lib/json-depth";
import { MAX_JSON_DEPTH } from "@/lib/limits";

/** Room for the JSON around the html (keys, domain, whitespace). */
const BODY_OVERHEAD_BYTES = 64 * 1024;
/** JSON's worst case: one byte of a control character is six bytes of escape (`\u0001`). */
const WORST_CASE_ESCAPE_FACTOR = 6;

/**
 * The raw-body cap of the analyzer. The rule users see is the *decoded* html length (MAX_HTML_BYTES,
 * checked after parsing); the raw cap only has to stop bodies no valid request could need, so it
 * allows the worst-case escaping of a valid html. A cap of MAX_HTML_BYTES + overhead refused a
 * 1.9 MiB html full of `"` (each escaped to two bytes).
 */
export function maxAnalyzeBodyBytes(maxHtmlBytes: number): number {
  return maxHtmlBytes * WORST_CASE_ESCAPE_FACTOR + BODY_OVERHEAD_BYTES;
}

/**
 * Reads a JSON request body as a stream with a byte cap, so an oversized body is refused (413) before
 * it is buffered or parsed, whatever Content-Length claims.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  return parseJsonBytes(await readJsonBytes(request, maxBytes));
}

/** readJsonBody's first half: the Content-Type check and the raw bytes under the cap (a buffer of their own, transferable). */
export async function readJsonBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new ApiError("INVALID_REQUEST", "Content-Type must be application/json.", {
      hint: "Send the body as JSON with the header Content-Type: application/json.",
    });
  }
  return readBodyBytes(request, maxBytes, () => tooLarge(maxBytes));
}

/** readJsonBody's second half: UTF-8 JSON → a value; INVALID_REQUEST when empty, nested too deep or not JSON. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  const text = new TextDecoder("utf-8").decode(bytes);
  if (text === "") throw new ApiError("INVALID_REQUEST", "The request body is empty; a JSON object is required.");
  rejectDeepJson(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJson();
  }
}

/** The answer to a body that is not JSON. */
export function invalidJson(): ApiError {
  return new ApiError("INVALID_REQUEST", "The request body is not valid JSON.");
}

/** The answer to a body nested deeper than MAX_JSON_DEPTH (measured unparsed: lib/json-depth.ts), the same on every route. */
export function tooDeepJson(): ApiError {
  return new ApiError(
    "INVALID_REQUEST",
    `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
    {
      hint: `Nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep; no LinkLens operation needs more than a few.`,
    },
  );
}

/**
 * 400 INVALID_REQUEST when the JSON text nests deeper than MAX_JSON_DEPTH. Called before JSON.parse on
 * every body a client sends: what comes after the parse (NUL scans, validation, structured clones to a
 * worker, JSON.stringify) spends stack and time per level.
 */
export function rejectDeepJson(text: string): void {
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) throw tooDeepJson();
}

/**
 * A text/csv body as UTF-8 text: 400 for another Content-Type or an empty body, `tooLarge()` (413) as soon
 * as it passes `maxBytes`.
 */
export async function readCsvBody(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<string> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "text/csv")
    throw new ApiError("INVALID_REQUEST", "Content-Type must be text/csv.", {
      hint: "Send the file itself as the body with Content-Type: text/csv.",
    });
  const text = await readBodyText(request, maxBytes, tooLarge);
  if (text === "") throw new ApiError("INVALID_REQUEST", "The body is empty; send a CSV file with a header row.");
  return text;
}

/** What an image upload may be, each named by its Content-Type (the bytes must then be of that type). */
export const IMAGE_BODY_TYPES = ["image/png", "image/jpeg"] as const;
export type ImageBodyType = (typeof IMAGE_BODY_TYPES)[number];

/** An image upload as sent: the type its Content-Type claims and its bytes (not decoded yet). */
export interface ImageBody {
  mediaType: ImageBodyType;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * An image upload: 415 for a Content-Type other than IMAGE_BODY_TYPES (SVG, GIF, WebP, none at all),
 * decided before a byte is read; `tooLarge()` (413) as soon as the body passes `maxBytes`; 400 for an
 * empty body. Whether the bytes are the image they claim is the caller's to decide, by decoding them.
 */
export async function readImageBody(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<ImageBody> {
  const sent = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const mediaType = IMAGE_BODY_TYPES.find((type) => type === sent);
  if (!mediaType)
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      sent
        ? `Content-Type ${sent} is not accepted: send a PNG or a JPEG.`
        : "The body has no Content-Type: send a PNG or a JPEG.",
      {
        hint: "Send the image itself as the body with Content-Type: image/png or image/jpeg. SVG, GIF, WebP and other types are refused: export the image as PNG first.",
      },
    );
  const bytes = await readBodyBytes(request, maxBytes, tooLarge);
  if (bytes.byteLength === 0) throw new ApiError("INVALID_REQUEST", `The body is empty; send the ${mediaType} image.`);
  return { mediaType, bytes };
}

/**
 * A request body as UTF-8 text, read as a stream and refused with `tooLarge()` (413) as soon as it
 * passes `maxBytes`, whatever Content-Length claims; "" when there is none.
 */
export async function readBodyText(request: Request, maxBytes: number, tooLarge: () => ApiError): Promise<string> {
  return new TextDecoder("utf-8").decode(await readBodyBytes(request, maxBytes, tooLarge));
}

/**
 * A request body's bytes, read as a stream and refused with `tooLarge()` as soon as it passes
 * `maxBytes`. The answer owns its whole ArrayBuffer (never a slice of Node's shared pool), so it can be
 * transferred to a worker thread.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  tooLarge: () => ApiError,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The 413 of a body over `maxBytes`. */
export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than ${maxBytes.toLocaleString("en-US")} bytes.`,
  );
}
