/**
 * Fixed limits of decisions.md that are not configuration. Imports nothing, so the URL policy, the zod
 * schemas, the docs and the browser-side form validation all read the same number.
 */

/** The longest URL LinkLens accepts, before and after normalisation (characters). */
export const MAX_URL_LENGTH = 2048;

/**
 * The deepest nesting of arrays and objects a JSON request body may have (the outermost `{` is level 1).
 * Real bodies nest four or five levels; this one is checked on the raw text before anything parses or
 * walks the body (lib/json-depth.ts), so a body of a few kilobytes cannot cost seconds of CPU or a stack.
 */
export const MAX_JSON_DEPTH = 64;
