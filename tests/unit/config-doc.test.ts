import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema, parseConfig } from "../../lib/config";

/**
 * docs/configuration.md is the operator's list of every environment variable. Its Meaning column needs
 * words a schema cannot give, so it is written by hand and held to lib/config.ts here: every variable of
 * the schema has exactly one row, every row names a variable of the schema, and the Default column shows
 * the schema's default where that is a constant. A variable without one (unset means "derived", "from the
 * request", "generated" or nothing) shows `–`, `empty` or words, never a value it does not have.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const DOC = "docs/configuration.md";

/** `| `NAME` | default | meaning |` rows, anywhere in the document (it has a table per concern). */
const ROW = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]*?)\s*\|/;
const NO_CONSTANT = /^(?:–|empty)$|\s/;

type Defaults = Record<string, unknown>;

/** What is wrong with the document's rows against the schema's variables and their defaults. */
function configDocProblems(markdown: string, defaults: Defaults): string[] {
  const rows = markdown.split("\n").flatMap((line) => {
    const match = ROW.exec(line);
    return match ? [{ name: match[1] ?? "", shown: (match[2] ?? "").replaceAll("`", "").trim() }] : [];
  });
  const problems: string[] = [];
  for (const name of Object.keys(defaults)) {
    const count = rows.filter((row) => row.name === name).length;
    if (count !== 1) problems.push(`${name}: ${count} rows (one expected)`);
  }
  for (const { name, shown } of rows) {
    if (!(name in defaults)) {
      problems.push(`${name}: a row, but no such variable in lib/config.ts`);
      continue;
    }
    const value = defaults[name];
    const constant = typeof value === "number" || (typeof value === "string" && value !== "");
    if (constant && shown !== String(value))
      problems.push(`${name}: shows "${shown}", the schema's default is ${value}`);
    if (!constant && !NO_CONSTANT.test(shown)) problems.push(`${name}: shows "${shown}", the schema has no default`);
  }
  return problems;
}

/** Every variable of the schema with what it parses to when unset. */
function schemaDefaults(): Defaults {
  const parsed: Defaults = parseConfig({});
  return Object.fromEntries(Object.keys(configSchema.shape).map((name) => [name, parsed[name]]));
}

describe(`${DOC} lists every variable of lib/config.ts with its default`, () => {
  it("the check finds a missing row, a row of no variable, a wrong default and a value shown for none", () => {
    const defaults = { LIMIT: 10, MODE: "on", LIST: [], SECRET: undefined, DERIVED: undefined };
    const table = (rows: string[]) => ["| Variable | Default | Meaning |", "|---|---|---|", ...rows].join("\n");
    const good = [
      "| `LIMIT` | 10 | requests |",
      "| `MODE` | on | a switch |",
      "| `LIST` | empty | hosts |",
      "| `SECRET` | – | a secret |",
      "| `DERIVED` | 2 × `LIMIT` | derived |",
    ];
    expect(configDocProblems(table(good), defaults)).toEqual([]);
    expect(configDocProblems(table(good.slice(1)), defaults)).toEqual(["LIMIT: 0 rows (one expected)"]);
    expect(configDocProblems(table([...good, "| `GONE` | 1 | removed |"]), defaults)).toEqual([
      "GONE: a row, but no such variable in lib/config.ts",
    ]);
    expect(configDocProblems(table([...good, good[0] ?? ""]), defaults)).toEqual(["LIMIT: 2 rows (one expected)"]);
    const wrong = table(["| `LIMIT` | 20 | requests |", "| `MODE` | off | a switch |", ...good.slice(2)]);
    expect(configDocProblems(wrong, defaults)).toEqual([
      'LIMIT: shows "20", the schema\'s default is 10',
      'MODE: shows "off", the schema\'s default is on',
    ]);
    const invented = table([...good.slice(0, 3), "| `SECRET` | 30 | a secret |", good[4] ?? ""]);
    expect(configDocProblems(invented, defaults)).toEqual(['SECRET: shows "30", the schema has no default']);
  });

  it(`${DOC} agrees with the schema`, () => {
    const defaults = schemaDefaults();
    expect(Object.keys(defaults).length).toBeGreaterThan(40);
    expect(configDocProblems(readFileSync(path.join(ROOT, DOC), "utf8"), defaults)).toEqual([]);
  });
});
