"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ZodType } from "zod";
import type { Page } from "@/lib/schemas/common";
import { api, type ApiResult } from "./api";
import type { Answer } from "./answers";

/**
 * Client data of the signed-in pages: one hook reads an account API path, checks the answer with the
 * server's own zod schema (an answer that does not match is an error, never data) and reads it again when
 * an action says the path changed. A page's server component hands it the first answer (`initial`), so the
 * first paint has data and no request is made for it.
 */

export interface ApiData<T> {
  /** The latest answer the schema accepted; while a new path loads, the previous path's. */
  data: T | undefined;
  /** Why the latest read failed (the data shown, if any, is older). */
  error: string | null;
  loading: boolean;
  /** Reads the path again. */
  revalidate: () => Promise<void>;
  /** Shows an answer the page already has (an action's), without reading the path again. */
  replace: (data: T) => void;
}

interface State<T> {
  path: string | null;
  data: T | undefined;
  error: string | null;
  loading: boolean;
  /** The path has had its answer (the server's, or a read's: a failure too); until then it is read. */
  settled: boolean;
  /** The server's answer last taken over: only a new one (after router.refresh()) replaces the data again. */
  seed: Answer<T> | undefined;
}

/** Readers of the mounted hooks by path without its query: what `mutate` and `revalidatePaths` name. */
const readers = new Map<string, Set<() => Promise<void>>>();

const keyOf = (path: string) => path.split("?", 1)[0] ?? path;

function follow(path: string, read: () => Promise<void>): () => void {
  const key = keyOf(path);
  const set = readers.get(key) ?? new Set();
  set.add(read);
  readers.set(key, set);
  return () => {
    set.delete(read);
    if (set.size === 0) readers.delete(key);
  };
}

/**
 * Reads again every mounted `useApi` whose path (its query left out: `/api/account/links` names every
 * filtered list of links) is one of `paths`, and resolves once they have their answers.
 */
export async function revalidatePaths(paths: readonly string[]): Promise<void> {
  const reads = new Set(paths.flatMap((path) => [...(readers.get(keyOf(path)) ?? [])]));
  await Promise.all([...reads].map((read) => read()));
}

/**
 * Runs an action (a POST, PUT, PATCH or DELETE through `api`) and, if it succeeded, reads again the paths it
 * changed (see `revalidatePaths`) before answering the action's result.
 */
export async function mutate<T>(action: Promise<ApiResult<T>>, changed: readonly string[]): Promise<ApiResult<T>> {
  const result = await action;
  if (result.ok) await revalidatePaths(changed);
  return result;
}

/**
 * The state for `path`: the server's answer if it is this path's and not taken over before (a path the
 * user comes back to is read afresh), else the data shown so far while the path is read.
 */
function stateFor<T>(path: string | null, initial: Answer<T> | undefined, previous?: State<T>): State<T> {
  if (initial !== undefined && initial.path === path && initial !== previous?.seed)
    return { path, data: initial.data, error: null, loading: false, settled: true, seed: initial };
  if (path === null) return { path, data: undefined, error: null, loading: false, settled: true, seed: previous?.seed };
  return { path, data: previous?.data, error: null, loading: true, settled: false, seed: previous?.seed };
}

/**
 * GET `path` (null: nothing to read yet) as `schema` (a module-level constant: a new schema on every render
 * would read again on every render). `initial` is the server's answer; it is used only for its own path.
 */
export function useApi<T>(
  path: string | null,
  schema: ZodType<T>,
  { initial }: { initial?: Answer<T> } = {},
): ApiData<T> {
  const [state, setState] = useState<State<T>>(() => stateFor(path, initial));
  let current = state;
  // A new path, or a new answer from the server (a refresh of the page), replaces what is shown.
  if (state.path !== path || (initial !== undefined && initial !== state.seed && initial.path === path)) {
    current = stateFor(path, initial, state);
    setState(current);
  }

  // Only the latest read may answer: an older one finishing late must not overwrite it.
  const reads = useRef(0);
  const read = useCallback(async () => {
    if (path === null) return;
    const mine = ++reads.current;
    const result = await api("GET", path, undefined, schema);
    if (mine !== reads.current) return;
    setState((shown) => {
      if (shown.path !== path) return shown;
      return result.ok
        ? { ...shown, data: result.data, error: null, loading: false, settled: true }
        : { ...shown, error: result.error, loading: false, settled: true };
    });
  }, [path, schema]);

  const revalidate = useCallback(async () => {
    setState((shown) => (shown.path === path && path !== null ? { ...shown, loading: true } : shown));
    await read();
  }, [path, read]);

  const replace = useCallback(
    (data: T) => {
      reads.current += 1;
      setState((shown) =>
        shown.path === path ? { ...shown, data, error: null, loading: false, settled: true } : shown,
      );
    },
    [path],
  );

  useEffect(() => (path === null ? undefined : follow(path, revalidate)), [path, revalidate]);

  // A path the server did not answer is read once it is shown (it shows as loading already); after a
  // failure, only on request.
  const unsettled = !current.settled;
  useEffect(() => {
    if (unsettled) void read();
  }, [unsettled, read]);

  return { data: current.data, error: current.error, loading: current.loading, revalidate, replace };
}

export interface ApiPages<T> {
  /** The pages read so far, the first one first. */
  pages: Page<T>[];
  items: T[];
  nextCursor: string | null;
  error: string | null;
  loading: boolean;
  /** Reads the page after the last one. */
  loadMore: () => Promise<void>;
  revalidate: () => Promise<void>;
}

/**
 * A list of the account API (`{ items, nextCursor }`) read a page at a time: the first page is `useApi`'s
 * (so actions revalidate it, and the server may hand it over), the next ones follow its cursor. Pages after
 * the first belong to the first page they followed: when it is read again, they are dropped.
 */
export function useApiPages<T>(
  path: string | null,
  schema: ZodType<Page<T>>,
  options: { initial?: Answer<Page<T>> } = {},
): ApiPages<T> {
  const first = useApi(path, schema, options);
  const [more, setMore] = useState<{ after: Page<T>; pages: Page<T>[] } | null>(null);
  const [moreError, setMoreError] = useState<{ after: Page<T>; error: string } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const following = first.data !== undefined && more?.after === first.data ? more.pages : [];
  const pages = first.data === undefined ? [] : [first.data, ...following];
  const last = pages.at(-1);

  async function loadMore() {
    const after = first.data;
    const cursor = last?.nextCursor;
    // While the first page is read again, its cursor may be about to change.
    if (path === null || after === undefined || !cursor || first.loading) return;
    setLoadingMore(true);
    const result = await api(
      "GET",
      `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`,
      undefined,
      schema,
    );
    setLoadingMore(false);
    if (!result.ok) return setMoreError({ after, error: result.error });
    setMoreError(null);
    setMore((shown) => ({ after, pages: [...(shown?.after === after ? shown.pages : []), result.data] }));
  }

  return {
    pages,
    items: pages.flatMap((page) => page.items),
    nextCursor: last?.nextCursor ?? null,
    error: first.error ?? (moreError && moreError.after === first.data ? moreError.error : null),
    loading: first.loading || loadingMore,
    loadMore,
    revalidate: first.revalidate,
  };
}
