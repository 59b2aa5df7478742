import type { z } from "zod";
import { jsonResponse } from "../http/response";
import type { AccountOperation } from "../schemas/operation-entry";

/**
 * An account operation's answer: its handler returns the value and the wrapper sends it with the catalog
 * entry's status (a download or a file is a Response of its own, a 204 nothing at all). In tests every
 * answer is held against the entry, so a route and its entry cannot drift apart unnoticed.
 */

/** An answer with headers of its own (the quota's, caching); the status stays the entry's. */
export class AnswerWithHeaders<T> {
  constructor(
    readonly answer: T,
    readonly headers: Record<string, string>,
  ) {}
}

export function withHeaders<T>(answer: T, headers: Record<string, string>): AnswerWithHeaders<T> {
  return new AnswerWithHeaders(answer, headers);
}

/** What a handler returns for its entry: the JSON answer (the response schema's input), a Response for a download, nothing for a 204. */
export type AnswerOf<O extends AccountOperation> = O extends { download: readonly string[] }
  ? Response
  : O extends { status: 204 }
    ? void
    : O extends { response: infer R extends z.ZodType }
      ? z.input<R> | AnswerWithHeaders<z.input<R>>
      : never;

/** The entry's answer as a Response. */
export function answerResponse(operation: AccountOperation, answer: unknown): Response {
  if (process.env.NODE_ENV === "test") assertAnswerMatches(operation, answer);
  if (answer instanceof Response) return answer;
  if (operation.status === 204) return new Response(null, { status: 204 });
  const { value, headers } =
    answer instanceof AnswerWithHeaders
      ? { value: answer.answer, headers: answer.headers }
      : { value: answer, headers: {} };
  return jsonResponse(value, { status: operation.status, headers });
}

/**
 * Throws when an answer is not what the entry says: a JSON answer that its `response` schema refuses
 * (checked as the client reads it, after JSON encoding), a download of another status or media type, a
 * body on a 204. Run in tests only (NODE_ENV=test): production builds drop it.
 */
export function assertAnswerMatches(operation: AccountOperation, answer: unknown): void {
  const fail = (why: string) => {
    throw new Error(`${operation.operationId} (${operation.method} ${operation.path}): ${why}`);
  };
  if (operation.download) {
    if (!(answer instanceof Response)) return fail("a download answers a Response");
    const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (answer.status !== operation.status) fail(`answered ${answer.status}, the entry says ${operation.status}`);
    if (!operation.download.includes(mediaType))
      fail(`answered ${mediaType}, the entry says ${operation.download.join(" or ")}`);
    return;
  }
  if (answer instanceof Response) return fail("answered a Response of its own; its entry describes a JSON answer");
  if (operation.status === 204) {
    if (answer !== undefined) fail("answered a body; the entry says 204 (none)");
    return;
  }
  if (!operation.response) return fail("the entry names no response schema");
  const value = answer instanceof AnswerWithHeaders ? answer.answer : answer;
  const sent: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  const checked = operation.response.safeParse(sent);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    fail(
      `the answer does not match the entry's response schema: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    );
  }
}
