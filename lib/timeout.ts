/**
 * The one timeout race of LinkLens: `promise`, or `undefined` once `ms` have passed (the promise keeps
 * running; its later rejection is swallowed so it never becomes an unhandled rejection). The timer is
 * cleared as soon as either side settles and never keeps the process alive.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    timer.unref?.();
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Like withTimeout, but a timeout rejects with `onTimeout()` instead of resolving undefined. */
export async function raceTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  // Wrapped, so a promise that legitimately resolves to undefined is not taken for a timeout.
  const result = await withTimeout(
    promise.then((value) => ({ value })),
    ms,
  );
  if (result === undefined) throw onTimeout();
  return result.value;
}
