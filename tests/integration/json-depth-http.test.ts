import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorDocsUrl } from "../../lib/http/error-body";
import { tooDeepJson } from "../../lib/http/read-body";
import { ACCOUNT_OPERATIONS } from "../../lib/schemas/operations";
import { BROWSER_UA, ERROR_KEYS, startServer, type RunningServer } from "../../scripts/lib/server-process";

/**
 * Deeply nested JSON against the production build (docs/api.md "Choices where the specification is
 * silent"): every JSON route refuses a body nested deeper than 64 levels with 400 INVALID_REQUEST before
 * parsing it (413 when the body is over the route's size cap anyway), and a stream of such bodies costs
 * the server's main thread almost nothing, so health keeps answering. What it guards against: `[[[[…]]]]`
 * 4,000 deep (8 KB) overflows a recursive scan of the parsed value (seconds of quadratic work first, then
 * a 500 on /api/auth and the account routes, without signing in), and 100,000 deep overflows the structured
 * clone that hands a parsed value back from the analyzer's worker.
 */

const DEPTHS = [100, 4_000, 100_000];
const SHAPES = {
  arrays: (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`,
  objects: (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
} as const;

let server: RunningServer;
let cookie = "";
/** A real id per collection, for the account operations whose path names one (404 would come before the body). */
const ids: Record<string, string> = {};

interface Answer {
  status: number;
  text: string;
  json: Record<string, unknown> | null;
}

async function send(method: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      origin: server.baseUrl,
      "user-agent": BROWSER_UA,
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: the assertions print the text
  }
  return { status: response.status, text, json };
}

async function create(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await send("POST", path, JSON.stringify(body));
  expect(answer.status, answer.text).toBe(201);
  return answer.json ?? {};
}

/** The path with its `{id}` filled from `ids` by the collection before it; a new kind of id fails loudly. */
function concrete(template: string): string {
  return template.replace(/\/([a-z-]+)\/\{id\}/g, (_match, collection: string) => {
    const id = ids[collection];
    if (!id) throw new Error(`no fixture id for ${template}: create a ${collection} resource in beforeAll`);
    return `/${collection}/${id}`;
  });
}

/** Every route that reads a JSON body: the public analyzer, sign-in, sign-up, and each account operation with one (from the catalog). */
function jsonRoutes(): Array<{ name: string; method: string; path: string }> {
  const account = ACCOUNT_OPERATIONS.filter((op) => op.body !== undefined && op.bodyType === undefined).map((op) => ({
    name: `${op.method} ${op.path}`,
    method: op.method,
    path: concrete(op.path),
  }));
  return [
    { name: "POST /api/demo/analyze", method: "POST", path: "/api/demo/analyze" },
    { name: "POST /api/auth/sign-in/email", method: "POST", path: "/api/auth/sign-in/email" },
    { name: "POST /api/auth/sign-up/email", method: "POST", path: "/api/auth/sign-up/email" },
    ...account,
  ];
}

/** A shallow JSON body of exactly `bytes` bytes: what the route's size cap alone says of a body that long. */
function shallowTwin(bytes: number): string {
  const frame = '{"pad":""}';
  return `{"pad":"${"x".repeat(Math.max(0, bytes - frame.length))}"}`;
}

function expectErrorBody(answer: Answer, status: number, code: string, context: string): void {
  expect(answer.status, `${context}: ${answer.text.slice(0, 400)}`).toBe(status);
  expect(Object.keys(answer.json ?? {}).sort(), context).toEqual(ERROR_KEYS);
  expect(answer.json, context).toMatchObject({
    success: false,
    errorCode: code,
    docs: errorDocsUrl(`${server.baseUrl}/docs`, code as "INVALID_REQUEST"),
  });
}

/** utime + stime of the server's main thread (the event loop), in seconds: Linux's /proc, whatever else the machine runs. */
function mainThreadCpuSeconds(): number {
  const pid = server.process.pid;
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command name: state is field 3 of stat(5), utime 14 and stime 15.
  const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
  // /proc counts in USER_HZ, 100 a second on every Linux architecture Node runs on.
  return ticks / 100;
}

beforeAll(async () => {
  server = await startServer({
    RATE_LIMIT_PER_MINUTE: "1000000",
    AUTH_RATE_LIMIT_PER_15_MIN: "1000000",
    MONITOR_SCHEDULER: "off",
  });
  const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email: "deep@example.com", password: "correct horse battery", name: "Deep" }),
  });
  expect(signUp.status, await signUp.clone().text()).toBe(200);
  cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

  ids["domain-groups"] = String(
    (await create("/api/account/domain-groups", { name: "Sisters", domains: ["sister.example"] })).id,
  );
  const monitor = await create("/api/account/monitors", {
    url: "https://deep-json.example/",
    links: [{ target: "https://target.example/" }],
  });
  ids.monitors = String(monitor.id);
  ids.links = String((monitor.links as Array<{ id: string }>)[0]?.id);
  ids.webhooks = String((await create("/api/account/webhooks", { url: "https://hooks.example/deep" })).id);
  ids.audits = String((await create("/api/account/audits", { html: '<a href="https://example.org/">x</a>' })).id);
  ids.shares = String((await create("/api/account/shares", { title: "Deep", scope: "audit", auditId: ids.audits })).id);
  const members = await fetch(`${server.baseUrl}/api/account/members`, { headers: { cookie } });
  ids.members = String(((await members.json()) as { items: Array<{ id: string }> }).items[0]?.id);
});

afterAll(async () => {
  await server?.stop();
});

describe("a JSON body nested too deep", () => {
  it("covers every account operation that takes a JSON body", () => {
    const names = jsonRoutes().map((route) => route.name);
    for (const expected of [
      "POST /api/account/monitors",
      "PATCH /api/account/links/{id}",
      "POST /api/account/monitors/{id}/links",
      "POST /api/account/domain-groups",
      "POST /api/account/webhooks",
      "POST /api/account/shares",
      "PUT /api/account/notifications",
      "POST /api/account/invitations",
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(DEPTHS)(
    "is refused on every JSON route, %i levels deep: 400 INVALID_REQUEST saying so (413 when over the route's size cap), never 500",
    async (depth) => {
      const tooDeep = tooDeepJson();
      const failures: string[] = [];
      for (const route of jsonRoutes()) {
        for (const [shape, nest] of Object.entries(SHAPES)) {
          const body = nest(depth);
          const context = `${route.name}, ${shape} ${depth} deep (${body.length.toLocaleString("en-US")} bytes)`;
          const twin = await send(route.method, route.path, shallowTwin(Buffer.byteLength(body)));
          const answer = await send(route.method, route.path, body);
          try {
            if (twin.status === 413) {
              expectErrorBody(answer, 413, "PAYLOAD_TOO_LARGE", context);
            } else {
              expectErrorBody(answer, 400, "INVALID_REQUEST", context);
              expect(answer.json, context).toMatchObject({ error: tooDeep.message, hint: tooDeep.hint });
            }
          } catch (error) {
            failures.push(
              `${context}: ${answer.status} ${answer.text.slice(0, 200)} (${(error as Error).message.split("\n")[0]})`,
            );
          }
        }
      }
      expect(failures).toEqual([]);
      expect(server.output()).not.toMatch(/"level":50/);
    },
  );

  it.each(DEPTHS)(
    "is refused by the MCP endpoint, %i levels deep, in JSON-RPC form with the Error body as data",
    async (depth) => {
      const tooDeep = tooDeepJson();
      const bodies = [
        SHAPES.arrays(depth),
        `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${SHAPES.objects(depth)}}}`,
      ];
      for (const body of bodies) {
        const answer = await send("POST", "/mcp", body, { accept: "application/json, text/event-stream" });
        expect(answer.status, answer.text.slice(0, 300)).toBe(400);
        expect(answer.json).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: tooDeep.message },
        });
        const data = (answer.json?.error as { data?: Record<string, unknown> }).data ?? {};
        expect(Object.keys(data).sort()).toEqual(ERROR_KEYS);
        expect(data).toMatchObject({
          success: false,
          errorCode: "INVALID_REQUEST",
          error: tooDeep.message,
          hint: tooDeep.hint,
        });
      }
    },
  );

  it("costs the event loop next to nothing while four clients send 3,400-deep bodies in a loop, so health keeps answering", async () => {
    // 3,400 levels: just under where the recursive NUL scan overflowed, and ~0.4 s of its quadratic work each.
    const body = SHAPES.arrays(3_400);
    const targets = [
      "/api/auth/sign-in/email",
      "/api/auth/sign-in/email",
      "/api/auth/sign-in/email",
      "/api/auth/sign-up/email",
    ];
    const perClient = 15;
    // Warm the routes, so compiling them is not counted.
    for (const path of new Set(targets)) await send("POST", path, "{}");
    await fetch(`${server.baseUrl}/api/v1/health`);

    const cpuBefore = mainThreadCpuSeconds();
    const statuses: number[] = [];
    const probes: Array<{ status: number; ms: number }> = [];
    let attacking = true;
    const attack = Promise.all(
      targets.map(async (path) => {
        for (let i = 0; i < perClient; i++) statuses.push((await send("POST", path, body)).status);
      }),
    ).finally(() => {
      attacking = false;
    });
    const probe = (async () => {
      do {
        const started = performance.now();
        // Each answer must arrive (a probe that never gets one fails the test); how fast is not judged here.
        const response = await fetch(`${server.baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(120_000) });
        await response.text();
        probes.push({ status: response.status, ms: Math.round(performance.now() - started) });
        await new Promise((resolve) => setTimeout(resolve, 100));
      } while (attacking);
    })();
    await Promise.all([attack, probe]);
    const cpuSeconds = mainThreadCpuSeconds() - cpuBefore;

    expect(statuses).toEqual(Array.from({ length: targets.length * perClient }, () => 400));
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.filter((entry) => entry.status !== 200)).toEqual([]);
    // The server's own main-thread CPU time (the event loop's), not a wall-clock time: a loaded machine
    // stretches the wall clock, not the CPU a request costs. Before: ~100 ms per deep body (quadratic
    // NUL scan), so health probes waited seconds; now a request costs a millisecond or two, probes and
    // background work included in the figure. 25 ms leaves room for GC and a busy machine's slower cores.
    const perAttackMs = (cpuSeconds * 1000) / statuses.length;
    const context = `${cpuSeconds.toFixed(2)} s of main-thread CPU for ${statuses.length} deep bodies and ${probes.length} health probes; probes took up to ${Math.max(...probes.map((entry) => entry.ms))} ms`;
    expect(perAttackMs, context).toBeLessThan(25);
  }, 300_000);
});
