import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createAudit } from "@/app/api/account/audits/route";
import { GET as getAudit } from "@/app/api/account/audits/[id]/route";
import { analyzeHtml, shutdownAnalyzer, type AnalysisResult } from "@/lib/analyzer";
import { AuditSchema } from "@/lib/schemas/audits";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { BACKENDS, call, closeAll, signUp, useFreshDatabase } from "./harness";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "@/scripts/lib/corpus";
import { newGroup } from "./audit-setup";

/**
 * A signed-in audit is the public analyzer's answer, link for link, when no domain group applies: every
 * real page of the corpus is posted to POST /api/account/audits (in an organization that has groups, on
 * sites none of these pages links to) and compared with analyzeHtml, then read back with its snapshot.
 * The vendored sample runs on both backends; on PGlite also a spread of the shared corpus (../shared/corpus,
 * when present): every FULL_CORPUS_STRIDE-th page, all 170 with FULL_CORPUS=1. What is compared is one code
 * path (analyzer, storage, read-back), which a spread of pages exercises as well as all of them; the
 * analyzer's accuracy on every page is tests/unit/analyzer/corpus.test.ts's job.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
process.env.ORG_AUDITS_PER_DAY = "1000";

const SAMPLE = SAMPLE_CORPUS_DIR;
const FULL = sharedCorpusDir();
const pages = (dir: string | null) =>
  dir
    ? readdirSync(dir)
        .filter((name) => name.endsWith(".html"))
        .sort()
    : [];
const FULL_CORPUS_STRIDE = 6;
const hostOf = (file: string) => file.replace(/\.html$/, "").split("--")[0] ?? file;

afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
});

async function expectSameAsPublic(cookie: string, dir: string, file: string): Promise<void> {
  const html = readFileSync(path.join(dir, file), "utf8");
  const domain = hostOf(file);
  let reference: AnalysisResult | ApiError;
  try {
    reference =
      Buffer.byteLength(html) > getConfig().MAX_HTML_BYTES
        ? new ApiError("PAYLOAD_TOO_LARGE", "too large")
        : await analyzeHtml({ html, pageUrl: `https://${domain}/` }, { settings: getConfig() });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    reference = error;
  }
  const created = await call(createAudit, "POST", "/api/account/audits", { cookie, body: { html, domain } });
  if (reference instanceof ApiError) {
    expect(created.json?.errorCode, `${file}: ${created.text.slice(0, 200)}`).toBe(reference.code);
    return;
  }
  expect(created.status, `${file}: ${created.text.slice(0, 300)}`).toBe(201);
  const audit = AuditSchema.parse(created.json);
  expect(
    audit.links.map(({ signals: _s, ...link }) => link),
    file,
  ).toEqual(reference.links);
  expect(audit.stats, file).toEqual(reference.stats);
  expect([audit.url, audit.domain], file).toEqual([reference.url, reference.domain]);
  const read = await call(getAudit, "GET", "/x?include=snapshot", { cookie, params: { id: audit.id } });
  const stored = AuditSchema.parse(read.json);
  expect(
    stored.links.map(({ signals: _s, ...link }) => link),
    `${file} (read back)`,
  ).toEqual(reference.links);
  expect(stored.sanitizedHtml === reference.sanitizedHtml, `${file}: snapshot read back`).toBe(true);
}

describe.each(BACKENDS)("signed-in audits agree with the public analyzer (%s)", (backend) => {
  let cookie = "";
  beforeAll(async () => {
    await useFreshDatabase(backend);
    cookie = await signUp(`corpus-${backend}@example.com`);
    // Groups that apply to none of these pages: the classification must not change.
    await newGroup(cookie, "Unrelated network", ["linklens-unrelated-one.example", "linklens-unrelated-two.example"]);
  });

  it.each(pages(SAMPLE))("vendored page %s", async (file) => {
    await expectSameAsPublic(cookie, SAMPLE, file);
  });

  const corpus = backend === "pglite" ? pages(FULL) : [];
  const full = process.env.FULL_CORPUS === "1" ? corpus : corpus.filter((_, index) => index % FULL_CORPUS_STRIDE === 0);
  if (FULL && full.length > 0) {
    it(`the shared corpus (${full.length} of ${corpus.length} pages)`, { timeout: 900_000 }, async () => {
      for (const file of full) await expectSameAsPublic(cookie, FULL, file);
    });
  }
});
