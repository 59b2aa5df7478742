import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/scripts/lib/server-process";
import { attemptRequest } from "@/lib/webhooks/request";
import { pingMessage } from "@/lib/webhooks/message";
import { generateSecret } from "@/lib/webhooks/secret";

/**
 * The example receiver of docs/account-api.md ("A receiver"), run as written (its port changed): it
 * answers 204 to a delivery signed the way LinkLens signs, and 401 to one signed with another secret or
 * changed on the way.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const secret = generateSecret();
let child: ChildProcess;
let port = 0;
let file = "";

beforeAll(async () => {
  const docs = fs.readFileSync(path.join(ROOT, "docs", "account-api.md"), "utf8");
  const section = docs.slice(docs.indexOf("### A receiver"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error("docs/account-api.md has no js receiver under ### A receiver");
  port = await freePort();
  // Inside the repository, so `standardwebhooks` resolves from node_modules.
  file = path.join(ROOT, "test-results", `docs-receiver-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    code.replace(".listen(8080)", `.listen(${port}, "127.0.0.1", () => console.log("listening"))`),
  );
  child = spawn(process.execPath, [file], {
    env: { ...process.env, LINKLENS_WEBHOOK_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`the docs receiver exited (${code})`)));
  });
});

afterAll(() => {
  child?.kill();
  if (file) fs.rmSync(file, { force: true });
});

async function deliver(signedWith: string, tamper = false): Promise<number> {
  const request = attemptRequest(
    "standard",
    pingMessage({ id: "o1", name: "Acme" }, "https://linklens.example/app/webhooks", new Date()),
    signedWith,
    "d-1",
    new Date(),
  );
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: "POST",
    headers: request.headers,
    body: tamper ? request.body.replace("Acme", "Evil") : request.body,
  });
  return response.status;
}

describe("the docs' example receiver", () => {
  it("accepts a delivery signed with its secret (204)", async () => {
    expect(await deliver(secret)).toBe(204);
  });

  it.each([
    ["another secret", () => deliver(generateSecret())],
    ["a body changed on the way", () => deliver(secret, true)],
  ])("refuses one signed with %s (401)", async (_name, send) => {
    expect(await send()).toBe(401);
  });
});
