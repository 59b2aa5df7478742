import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorSchema } from "../../lib/api/schemas";
import { ERROR_KEYS, startServer, type RunningServer } from "../helpers/server";

/**
 * Requests that never reach a route handler in the usual way (odd request targets, headers that steer
 * Next's page router, bytes Node's parser refuses, upgrades) sent byte for byte to the production
 * server: under /api/ each gets the Error body with the right status, and nothing redirects off-site.
 */

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_PER_MINUTE: "100000" });
});
afterAll(async () => {
  await server?.stop();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `payload` to a fresh connection and parses the first answer (the server closes or we stop at its length). */
function raw(payload: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: server.port }, () => socket.write(payload, "latin1"));
    let data = Buffer.alloc(0);
    const finish = () => {
      const text = data.toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = split === -1 ? "" : text.slice(split + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body });
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const text = data.toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, split === -1 ? undefined : split))?.[1];
      const complete =
        length !== undefined
          ? Buffer.byteLength(text.slice(split + 4)) >= Number(length)
          : text.endsWith("\r\n0\r\n\r\n");
      if (split !== -1 && complete) {
        socket.destroy();
        finish();
      }
    });
    socket.on("error", reject);
    socket.on("close", finish);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(payload.slice(0, 80))}`)));
  });
}

/** Decodes a chunked body (sizes count bytes, not characters). */
function dechunk(encoded: string): string {
  const parts: Buffer[] = [];
  let rest = Buffer.from(encoded, "utf8");
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.subarray(0, eol).toString("latin1"), 16);
    if (eol === -1 || !size) return Buffer.concat(parts).toString("utf8");
    parts.push(rest.subarray(eol + 2, eol + 2 + size));
    rest = rest.subarray(eol + 2 + size + 2);
  }
}

function expectErrorBody(answer: RawAnswer, status: number, errorCode: string): void {
  const context = `${status} ${errorCode} expected, got ${answer.status} ${JSON.stringify(answer.headers)} ${answer.body.slice(0, 300)}`;
  expect(answer.status, context).toBe(status);
  expect(answer.headers["content-type"], context).toMatch(/^application\/json/);
  const json = JSON.parse(answer.body) as object;
  expect(Object.keys(json).sort(), context).toEqual(ERROR_KEYS);
  expect(ErrorSchema.parse(json).errorCode, context).toBe(errorCode);
  expect(answer.headers.location, context).toBeUndefined();
}

const host = () => `Host: 127.0.0.1:${server.port}\r\n`;

describe("odd request lines under /api/", () => {
  it.each(["/api//nope", "//api/nope", "/api//v1/health", "///api/v1"])(
    "GET %s → 404 Error body, no redirect",
    async (path) => {
      expectErrorBody(await raw(`GET ${path} HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`), 404, "NOT_FOUND");
    },
  );

  it("redirects other repeated-slash paths only within the site", async () => {
    const answer = await raw(`GET //evil.example/x?y=1 HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe("/evil.example/x?y=1");
  });

  it("ignores Next's RSC headers on API routes", async () => {
    const ok = await raw(
      `GET /api/v1/health HTTP/1.1\r\n${host()}RSC: 1\r\nNext-Router-Prefetch: 1\r\nConnection: close\r\n\r\n`,
    );
    expect(ok.status, ok.body).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ status: "ok", service: "linklens" });
    expectErrorBody(
      await raw(`GET /api/nope HTTP/1.1\r\n${host()}RSC: 1\r\nConnection: close\r\n\r\n`),
      404,
      "NOT_FOUND",
    );
  });

  it("serves an absolute-form request line as its path, never redirecting to that host", async () => {
    const ok = await raw(`GET http://evil.example/api/v1/health HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(ok.status, ok.body).toBe(200);
    expect(ok.headers.location).toBeUndefined();
    expectErrorBody(
      await raw(`GET http://evil.example/api/nope HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`),
      404,
      "NOT_FOUND",
    );
    const page = await raw(`GET http://evil.example/api HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(page.headers.location ?? "").not.toContain("evil.example");
  });

  it("answers `GET *` with a 400 Error body and `OPTIONS *` with 204", async () => {
    expectErrorBody(await raw(`GET * HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`), 400, "INVALID_REQUEST");
    const options = await raw(`OPTIONS * HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
  });
});

describe("requests Node refuses itself", () => {
  it("malformed headers → 400 Error body", async () => {
    expectErrorBody(await raw(`GET /api/v1 HTTP/1.1\r\n${host()}Bad Header Line\r\n\r\n`), 400, "INVALID_REQUEST");
  });

  it("oversized headers → 431 Error body", async () => {
    expectErrorBody(
      await raw(`GET /api/v1 HTTP/1.1\r\n${host()}X-Big: ${"a".repeat(20_000)}\r\n\r\n`),
      431,
      "INVALID_REQUEST",
    );
  });

  it("oversized chunk extensions → 413 Error body", async () => {
    const payload = `POST /api/demo/analyze HTTP/1.1\r\n${host()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1;${"x".repeat(20_000)}\r\n{\r\n`;
    expectErrorBody(await raw(payload), 413, "PAYLOAD_TOO_LARGE");
  });

  it("an unsupported Expect → 417 Error body", async () => {
    expectErrorBody(
      await raw(
        `POST /api/demo/analyze HTTP/1.1\r\n${host()}Expect: something-else\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      ),
      417,
      "INVALID_REQUEST",
    );
  });

  it("an upgrade or CONNECT → 400 Error body", async () => {
    expectErrorBody(
      await raw(
        `GET /api/v1 HTTP/1.1\r\n${host()}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      ),
      400,
      "INVALID_REQUEST",
    );
    expectErrorBody(
      await raw(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`),
      400,
      "INVALID_REQUEST",
    );
  });
});
