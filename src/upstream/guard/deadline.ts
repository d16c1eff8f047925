// Waiting on work (a DNS answer) no longer than a guarded fetch's shared deadline or its signal allow.
import { RawFetchError } from '../http/http-types.ts';

const ranOut = (target: string) => new RawFetchError('timeout', `${target}: the time for this fetch ran out`);

/** Milliseconds left before `deadline`; throws the fetch's timeout when none are. */
export function timeLeft(deadline: number, target: string): number {
  const left = deadline - Date.now();
  if (left <= 0) throw ranOut(target);
  return left;
}

/** Settles with `work`, or with a timeout or abort RawFetchError, whichever comes first. */
export function withinDeadline<T>(work: Promise<T>, deadline: number, signal: AbortSignal | undefined, target: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new RawFetchError('aborted', `${target}: aborted`));
    // Cleared whichever way this settles: work that never settles must not keep the timer alive.
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = () => settle(() => reject(new RawFetchError('aborted', `${target}: aborted`)));
    const timer = setTimeout(() => settle(() => reject(ranOut(target))), Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
