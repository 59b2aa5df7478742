"use client";

import type { ZodType } from "zod";
import { ErrorSchema } from "@/lib/api/schemas";

/** What a call to our JSON APIs gives the pages: the data, or the Error body's message. */
export type ApiResult<T> =
  { ok: true; data: T } | { ok: false; status: number; error: string; errorCode: string; hint?: string };

const UNREACHABLE = "Could not reach LinkLens. Check your connection and try again.";
/** An answer of a shape the page does not know is never shown as data (a newer server, a proxy's page). */
const NOT_UNDERSTOOD = "LinkLens answered in a way this page does not understand. Reload the page and try again.";

type Failure = Extract<ApiResult<never>, { ok: false }>;
/** A call's outcome before its data is checked: the parsed JSON of a 2xx, or the failure in words. */
type Sent = { ok: true; json: unknown; status: number } | Failure;

async function send(method: string, path: string, body?: string | Blob, contentType?: string): Promise<Sent> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: contentType ? { "Content-Type": contentType } : undefined,
      body,
    });
  } catch {
    return { ok: false, status: 0, error: UNREACHABLE, errorCode: "NETWORK" };
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (response.ok) return { ok: true, json, status: response.status };
  const error = ErrorSchema.safeParse(json);
  return error.success
    ? {
        ok: false,
        status: response.status,
        error: error.data.error,
        errorCode: error.data.errorCode,
        hint: error.data.hint,
      }
    : { ok: false, status: response.status, error: `Request failed (${response.status}).`, errorCode: "UNKNOWN" };
}

function checked<T>(sent: Sent, answer: ZodType<T>): ApiResult<T> {
  if (!sent.ok) return sent;
  const parsed = answer.safeParse(sent.json);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, status: sent.status, error: NOT_UNDERSTOOD, errorCode: "INVALID_ANSWER" };
}

/**
 * Calls a JSON API of this site with the session cookie; errors come back as the Error body's fields.
 * The data of a success is what `answer` (the server's own zod schema of it) accepts, or an error; without
 * a schema the caller learns only whether it worked.
 */
export function api(method: string, path: string, body?: unknown): Promise<ApiResult<unknown>>;
export function api<T>(method: string, path: string, body: unknown, answer: ZodType<T>): Promise<ApiResult<T>>;
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  answer?: ZodType<T>,
): Promise<ApiResult<unknown>> {
  const sent = await (body === undefined
    ? send(method, path)
    : send(method, path, JSON.stringify(body), "application/json"));
  if (answer) return checked(sent, answer);
  return sent.ok ? { ok: true, data: sent.json } : sent;
}

/** POSTs a CSV text (an import) and checks the answer like `api`. */
export async function postCsv<T>(path: string, csv: string, answer: ZodType<T>): Promise<ApiResult<T>> {
  return checked(await send("POST", path, csv, "text/csv"), answer);
}

/** PUTs a file as the body, with its own media type (a logo), and checks the answer like `api`. */
export async function putFile<T>(path: string, file: Blob, answer: ZodType<T>): Promise<ApiResult<T>> {
  return checked(await send("PUT", path, file, file.type), answer);
}

/**
 * A full page load of `path` (not a client-side push): the signed-in frame is rendered on the server from
 * the session, so after signing in or out, or switching teams, it must be read afresh.
 */
export function loadPage(path: string): void {
  window.location.assign(path);
}
