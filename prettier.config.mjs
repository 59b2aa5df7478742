/**
 * Formatting is the tool's job, not the reviewer's: `npm run format` writes it, `npm run lint` checks it.
 * Print width 120, as dub does; everything else is Prettier's default but one: code inside template
 * literals stays as written (`embeddedLanguageFormatting: "off"`), because an `html` or `css` tagged
 * template is the text an email or a page receives, whitespace included.
 * @type {import("prettier").Config}
 */
const config = {
  printWidth: 120,
  embeddedLanguageFormatting: "off",
};

export default config;
