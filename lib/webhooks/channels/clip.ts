/** At most `max` characters (code points), cut with "…": every chat has a cap per text, and a cut pair would be mojibake. Pure. */
export function clip(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join("")}…`;
}
