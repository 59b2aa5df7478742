// @vitest-environment jsdom
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { act, createElement, type ReactElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { api } from "@/components/account/api";
import type { Answer } from "@/components/account/answers";
import { mutate, useApi, useApiPages } from "@/components/account/use-api";
import { pageOf, type Page } from "@/lib/schemas/common";

/**
 * The signed-in pages' data hook against a real HTTP server on 127.0.0.1, in a DOM: the server's answer is
 * shown without a request, a path without one is read, an answer the schema refuses is an error (never
 * data), an action re-reads the paths it names (only after it succeeded), and a list reads its next pages.
 */

const ItemSchema = z.strictObject({ name: z.string() });
const ItemsSchema = pageOf(ItemSchema);
type Items = Page<z.infer<typeof ItemSchema>>;

const errorBody = (error: string) => ({
  success: false,
  error,
  errorCode: "NOT_FOUND",
  hint: "Use an id from the lists.",
  docs: "http://127.0.0.1/docs#error-NOT_FOUND",
});

/** What the server holds and every request it answered ("GET /api/items?limit=2"). */
let names: string[] = [];
let others: string[] = [];
let requests: string[] = [];
let server: Server;
let origin = "";

function send(response: ServerResponse, status: number, body?: unknown) {
  response.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", origin);
  requests.push(`${request.method} ${url.pathname}${url.search}`);
  let body = "";
  for await (const chunk of request) body += String(chunk);
  const route = `${request.method} ${url.pathname}`;
  if (route === "GET /api/items") {
    // Two a page; the cursor is the index of the next name.
    const from = Number(url.searchParams.get("cursor") ?? 0);
    const next = from + 2 < names.length ? String(from + 2) : null;
    return send(response, 200, { items: names.slice(from, from + 2).map((name) => ({ name })), nextCursor: next });
  }
  if (route === "POST /api/items") {
    names.push((JSON.parse(body) as { name: string }).name);
    return send(response, 201, { name: names.at(-1) });
  }
  if (route === "GET /api/others")
    return send(response, 200, { items: others.map((name) => ({ name })), nextCursor: null });
  // A 200 whose body is not what the schema describes (a newer server, a proxy's page).
  if (route === "GET /api/odd") return send(response, 200, { items: "not a list", nextCursor: null });
  return send(response, 404, errorBody(`Nothing at ${url.pathname}.`));
}

const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The pages call paths like "/api/items"; a browser resolves them against the page's origin, Node does not.
  globalThis.fetch = (input, init) => realFetch(new URL(String(input), origin), init);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await new Promise((resolve) => server.close(resolve));
});

let container: HTMLElement;
let root: Root;

beforeEach(() => {
  names = ["a", "b", "c"];
  others = ["x"];
  requests = [];
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

/** Shows what the hook gives, as text: "data=a,b error=… loading". */
function Probe({ path, initial, id }: { path: string | null; initial?: Answer<Items>; id: string }) {
  const { data, error, loading } = useApi(path, ItemsSchema, { initial });
  const shown = [
    `data=${data ? data.items.map((item) => item.name).join(",") : "none"}`,
    `error=${error ?? "none"}`,
    loading ? "loading" : "idle",
  ];
  return createElement("p", { "data-probe": id }, shown.join(" "));
}

function PagesProbe({ path, initial }: { path: string; initial?: Answer<Items> }) {
  const list = useApiPages(path, ItemsSchema, { initial });
  return createElement(
    "button",
    { type: "button", onClick: () => void list.loadMore() },
    `items=${list.items.map((item) => item.name).join(",")} more=${list.nextCursor ?? "none"}`,
  );
}

const text = (id = "one") => container.querySelector(`[data-probe="${id}"]`)?.textContent ?? "";

async function render(element: ReactElement) {
  await act(async () => root.render(element));
}

/** Lets the network and React settle until `check` holds (the condition, not a fixed time, ends the wait). */
async function until(check: () => boolean, what: string) {
  for (let turn = 0; turn < 2000 && !check(); turn += 1)
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
  expect(check(), `waiting for ${what}; shown: ${container.textContent}; requests: ${requests.join(" | ")}`).toBe(true);
}

const answer = (path: string, ...items: string[]): Answer<Items> => ({
  path,
  data: { items: items.map((name) => ({ name })), nextCursor: null },
});

describe("useApi", () => {
  it("shows the server's answer for its path at once and reads nothing", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/items", initial: answer("/api/items", "s") }));
    expect(text()).toBe("data=s error=none idle");
    // A request, if one were made, would be answered long before this round trip ends.
    expect((await api("GET", "/api/others")).ok).toBe(true);
    expect(requests).toEqual(["GET /api/others"]);
    expect(text()).toBe("data=s error=none idle");
  });

  it("reads a path the server gave no answer for, and checks the answer", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/items" }));
    expect(text()).toBe("data=none error=none loading");
    await until(() => text() === "data=a,b error=none idle", "the first read");
    expect(requests).toEqual(["GET /api/items"]);
  });

  it("ignores a server answer given for another path", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/items", initial: answer("/api/others", "s") }));
    await until(() => text() === "data=a,b error=none idle", "the read of its own path");
  });

  it("shows an answer that does not match the schema as an error, never as data", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/odd" }));
    await until(() => !text().includes("loading"), "the read");
    expect(text()).toMatch(/^data=none error=LinkLens answered in a way this page does not understand\..* idle$/);
  });

  it("keeps the data it had when a later answer does not match, and says why", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/odd", initial: answer("/api/odd", "s") }));
    await act(() => mutate(Promise.resolve({ ok: true, data: null }), ["/api/odd"]));
    expect(text()).toMatch(/^data=s error=LinkLens answered in a way this page does not understand\..* idle$/);
  });

  it("shows an Error body's message", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/gone" }));
    await until(() => !text().includes("loading"), "the read");
    expect(text()).toBe("data=none error=Nothing at /api/gone. idle");
  });

  it("after a successful action re-reads the paths it names (whatever their query), and only those", async () => {
    await render(
      createElement("div", null, [
        createElement(Probe, {
          key: 1,
          id: "one",
          path: "/api/items?limit=2",
          initial: answer("/api/items?limit=2", "a"),
        }),
        createElement(Probe, { key: 2, id: "two", path: "/api/others", initial: answer("/api/others", "x") }),
      ]),
    );
    const result = await act(() => mutate(api("POST", "/api/items", { name: "d" }, ItemSchema), ["/api/items"]));
    expect(result).toEqual({ ok: true, data: { name: "d" } });
    expect(requests).toEqual(["POST /api/items", "GET /api/items?limit=2"]);
    // The action's promise ends once the re-read is shown.
    expect(text("one")).toBe("data=a,b error=none idle");
    expect(text("two")).toBe("data=x error=none idle");
  });

  it("re-reads nothing after a failed action", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/items", initial: answer("/api/items", "a") }));
    const result = await act(() => mutate(api("POST", "/api/nowhere", {}), ["/api/items"]));
    expect(result).toMatchObject({ ok: false, status: 404, error: "Nothing at /api/nowhere.", errorCode: "NOT_FOUND" });
    expect(requests).toEqual(["POST /api/nowhere"]);
    expect(text()).toBe("data=a error=none idle");
  });

  it("takes over a new answer of the server (a refreshed page) and reads a new path", async () => {
    await render(createElement(Probe, { id: "one", path: "/api/items", initial: answer("/api/items", "s") }));
    await render(createElement(Probe, { id: "one", path: "/api/items", initial: answer("/api/items", "t") }));
    expect(text()).toBe("data=t error=none idle");
    await render(createElement(Probe, { id: "one", path: "/api/others", initial: answer("/api/items", "t") }));
    // The data shown so far stays until the new path answers.
    expect(text()).toBe("data=t error=none loading");
    await until(() => text() === "data=x error=none idle", "the new path");
    expect(requests).toEqual(["GET /api/others"]);
  });
});

describe("useApiPages", () => {
  it("reads the next pages by cursor, and drops them when the first page is read again", async () => {
    names = ["a", "b", "c", "d", "e"];
    const first: Answer<Items> = {
      path: "/api/items",
      data: { items: [{ name: "a" }, { name: "b" }], nextCursor: "2" },
    };
    await render(createElement(PagesProbe, { path: "/api/items", initial: first }));
    const button = () => container.querySelector("button") as HTMLButtonElement;
    expect(button().textContent).toBe("items=a,b more=2");
    await act(async () => button().click());
    await until(() => button().textContent === "items=a,b,c,d more=4", "the second page");
    await act(async () => button().click());
    await until(() => button().textContent === "items=a,b,c,d,e more=none", "the last page");
    expect(requests).toEqual(["GET /api/items?cursor=2", "GET /api/items?cursor=4"]);
    await act(() => mutate(api("POST", "/api/items", { name: "f" }), ["/api/items"]));
    expect(button().textContent).toBe("items=a,b more=2");
  });
});
