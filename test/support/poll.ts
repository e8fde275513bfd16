// Polling for tests, written once: wait until something holds, or until a probe gives a value,
// and fail naming what was awaited. `holdsWithin` is the one variant that answers instead of
// throwing, for a test that collects every late round before it fails.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` holds; throws "timed out waiting for <what>" after `ms`. */
export async function until(check: () => boolean, what: string, ms = 20_000, everyMs = 20): Promise<void> {
  if (!(await holdsWithin(check, ms, everyMs))) throw new Error(`timed out waiting for ${what}`);
}

/** Whether `check()` came to hold within `ms`. */
export async function holdsWithin(check: () => boolean, ms: number, everyMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await pause(everyMs);
  }
  return true;
}

/** The first value `probe` gives (it may be async); throws "timed out waiting for <what>" after `ms`. */
export async function untilValue<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 20_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await pause(everyMs);
  }
}
