import type { z } from "zod";
import { readAnalyzeRequest, type ParsedAnalyzeRequest } from "../api/analyze-request";
import { getConfig } from "../config";
import { ApiError } from "../errors";
import { rejectNul } from "../http/nul";
import { parseQuery } from "../http/query";
import { readBodyBytes, readCsvBody, readImageBody, readJsonBody, tooLarge, type ImageBody } from "../http/read-body";
import { DEFAULT_BODY_BYTES, type AccountOperation } from "../schemas/operation-entry";

/**
 * What an account operation's handler gets besides the service context: the query and the body, read
 * and checked as its catalog entry says (lib/schemas/operations.ts), so no route parses input of its own.
 */

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** The path's parameters by name, e.g. `{ id, deliveryId }` for `…/webhooks/{id}/deliveries/{deliveryId}/retry`. */
export type ParamsOf<O extends AccountOperation> = { readonly [K in ParamNames<O["path"]>]: string };

export type QueryOf<O extends AccountOperation> = O extends { query: infer Q extends z.ZodType }
  ? z.output<Q>
  : undefined;

export type BodyOf<O extends AccountOperation> = O extends { bodyReader: "analyze-request" }
  ? ParsedAnalyzeRequest
  : O extends { bodyType: "text/csv" }
    ? string
    : O extends { bodyType: "image" }
      ? ImageBody
      : O extends { body: infer B extends z.ZodType }
        ? z.output<B>
        : undefined;

export interface OperationInput<O extends AccountOperation> {
  /** For what only the request has: its signal (the client went away), request id, origin. */
  request: Request;
  params: ParamsOf<O>;
  query: QueryOf<O>;
  body: BodyOf<O>;
}

/** The query string through the entry's strict schema; not read at all when the entry has none. */
export function readOperationQuery(request: Request, operation: AccountOperation): unknown {
  return operation.query ? parseQuery(request, operation.query, operation.queryHint) : undefined;
}

/**
 * The body as the entry describes it: JSON under its cap (16 KiB unless the entry says more), free of
 * U+0000 and valid for its strict schema (400 names the field; over the cap 413); CSV as text; an image
 * as its bytes and the type it claims (415 for another type, before a byte is read); the analyzer's
 * request as the public analyzer reads it. An entry with a cap and no body has whatever is sent read and
 * dropped; one with neither leaves the body unread.
 */
export async function readOperationBody(request: Request, operation: AccountOperation): Promise<unknown> {
  if (operation.bodyReader === "analyze-request") {
    const config = getConfig();
    return readAnalyzeRequest(request, {
      maxHtmlBytes: config.MAX_HTML_BYTES,
      allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS,
    });
  }
  const maxBytes = operation.bodyMaxBytes ?? DEFAULT_BODY_BYTES;
  const words = operation.bodyTooLarge;
  const overCap = () =>
    words ? new ApiError("PAYLOAD_TOO_LARGE", words.message, { hint: words.hint }) : tooLarge(maxBytes);
  if (operation.bodyType === "text/csv") return readCsvBody(request, maxBytes, overCap);
  if (operation.bodyType === "image") return readImageBody(request, maxBytes, overCap);
  if (operation.body) {
    const body = await readJsonBody(request, maxBytes);
    rejectNul(body);
    const parsed = operation.body.safeParse(body);
    if (!parsed.success) throw parsed.error;
    return parsed.data;
  }
  if (operation.bodyMaxBytes !== undefined) await readBodyBytes(request, maxBytes, overCap);
  return undefined;
}
