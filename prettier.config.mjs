/**
 * Formatting is the tool's job (STYLE.md): `npm run format` writes it, `npm run lint` checks it.
 * Print width 120, as dub does; everything else is Prettier's default.
 * @type {import("prettier").Config}
 */
const config = {
  printWidth: 120,
};

export default config;
