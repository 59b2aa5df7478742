/**
 * Every subject written to the outbox passes here. Subjects are built from names and page titles
 * (a team's name, a monitored page's title), and a subject is a header line: a line break in it would
 * start a header of the sender's choosing in a careless transport, and one of 60,000 characters makes
 * a mail nobody can read. Names are limited where they are set (lib/auth/names.ts); this is the floor
 * for everything else, and for rows written before those limits.
 */

export const MAX_SUBJECT_CHARACTERS = 200;

/** Control characters (C0 with CR, LF and tab; DEL; C1) and the Unicode line and paragraph separators. */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `subject` on one line (each run of control characters a space), at most 200 characters, cut with "…". */
export function subjectLine(subject: string): string {
  const oneLine = subject.replace(BREAKS, " ").trim();
  const characters = [...oneLine];
  if (characters.length <= MAX_SUBJECT_CHARACTERS) return oneLine;
  return `${characters
    .slice(0, MAX_SUBJECT_CHARACTERS - 1)
    .join("")
    .trimEnd()}…`;
}
