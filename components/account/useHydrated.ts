"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server render and until React has hydrated. Submit buttons stay disabled until then, so an
 * early click cannot fall back to a native form GET (which would put a password in the URL) or do nothing.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
