"use client";

/** What a call to our JSON APIs gives the pages: the data, or the Error body's message. */
export type ApiResult<T> =
  { ok: true; data: T } | { ok: false; status: number; error: string; errorCode: string; hint?: string };

/** Calls a JSON API of this site with the session cookie; errors come back as the Error body's fields. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? undefined : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      error: "Could not reach LinkLens. Check your connection and try again.",
      errorCode: "NETWORK",
    };
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (response.ok) return { ok: true, data: json as T };
  const error = json as { error?: string; errorCode?: string; hint?: string } | null;
  return {
    ok: false,
    status: response.status,
    error: error?.error ?? `Request failed (${response.status}).`,
    errorCode: error?.errorCode ?? "UNKNOWN",
    ...(typeof error?.hint === "string" ? { hint: error.hint } : {}),
  };
}

/**
 * A full page load of `path` (not a client-side push): the signed-in frame is rendered on the server from
 * the session, so after signing in or out, or switching teams, it must be read afresh.
 */
export function loadPage(path: string): void {
  window.location.assign(path);
}
