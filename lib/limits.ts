/**
 * Fixed limits of decisions.md that are not configuration. Imports nothing, so the URL policy, the zod
 * schemas, the docs and the browser-side form validation all read the same number.
 */

/** The longest URL LinkLens accepts, before and after normalisation (characters). */
export const MAX_URL_LENGTH = 2048;
