// A value loaded lazily, once per process, shared by every caller. A failed load is forgotten so
// the next call tries again; how long the successful load took is kept for the figures.

export interface LoadedOnce<T> {
  get(): Promise<T>;
  /** Milliseconds the successful load took, or undefined before it finished. */
  loadMs(): number | undefined;
}

export function loadOnce<T>(load: () => Promise<T>): LoadedOnce<T> {
  let pending: Promise<T> | undefined;
  let took: number | undefined;
  return {
    get() {
      pending ??= (async () => {
        const started = performance.now();
        const value = await load();
        took = performance.now() - started;
        return value;
      })().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    loadMs: () => took,
  };
}
