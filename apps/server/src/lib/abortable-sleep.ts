/** The signal's reason as an Error (an Error as it is; anything else wrapped). */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error(String(r));
}

/**
 * Waits `ms` milliseconds (a vendor's backoff or poll interval), or rejects as soon as `signal` aborts —
 * the job's timeout or the user leaving must not wait out a long backoff. The timer is cleared on abort.
 * @param ms delay in milliseconds
 * @param signal optional; without one this is a plain delay
 * @param onAbort the error to reject with (default: the signal's reason, see {@link abortReason})
 */
export function abortableSleep(ms: number, signal?: AbortSignal, onAbort: (signal: AbortSignal) => unknown = abortReason): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort(signal!));
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
