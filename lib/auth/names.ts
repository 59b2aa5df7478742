import { ApiError } from "../errors";

/**
 * User and organization names (and slugs) go into email subjects and headers, the activity log and every
 * page of the app. Better Auth takes any string, so a 60,000-character name, or one with a line break,
 * made a 272 KB invitation email with a 60,145-character subject. Every Better Auth path that sets one
 * is checked here, in front of it; /api/account sets none. (Domain group names have their own rule in
 * lib/account/domain-groups.ts.)
 */

export const MAX_NAME_CHARACTERS = 100;

/** C0 (tab, CR, LF…), DEL, C1 (NEL…) and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** What is wrong with a name (a sentence after `field: `), or null when it is fine. */
export function nameProblem(value: unknown): string | null {
  if (typeof value !== "string") return "must be a string.";
  // Characters as people count them: an emoji or an accented letter is one.
  if ([...value].length > MAX_NAME_CHARACTERS) return `must be at most ${MAX_NAME_CHARACTERS} characters.`;
  if (CONTROL.test(value)) return "must not contain control characters (line breaks, tabs and the like).";
  return null;
}

/** The fields of each Better Auth path that set a name: sign-in/magic-link names the account it may create. */
const NAME_FIELDS: Record<string, ReadonlyArray<readonly string[]>> = {
  "/sign-up/email": [["name"]],
  "/sign-in/magic-link": [["name"]],
  "/update-user": [["name"]],
  "/organization/create": [["name"], ["slug"]],
  "/organization/update": [
    ["data", "name"],
    ["data", "slug"],
  ],
};

function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** 400 INVALID_REQUEST naming the first name field of an /api/auth body that breaks the rule (absent fields are Better Auth's). */
export function rejectBadNames(path: string, body: unknown, hint: string): void {
  for (const field of NAME_FIELDS[path] ?? []) {
    const value = valueAt(body, field);
    if (value === undefined) continue;
    const problem = nameProblem(value);
    if (problem) throw new ApiError("INVALID_REQUEST", `${field.join(".")}: ${problem}`, { hint });
  }
}

/** The personal organization's name for a user's name, kept within the limit. */
export function personalTeamName(userName: string | null | undefined): string {
  const suffix = "'s team";
  const name = [...(userName ?? "").trim()]
    .slice(0, MAX_NAME_CHARACTERS - suffix.length)
    .join("")
    .trimEnd();
  return name ? `${name}${suffix}` : "Personal";
}
