// web/src/ui — run a function once typing pauses: each call restarts the wait.

export interface Debounced {
  /** Runs the function `ms` after the last call (an earlier pending run is dropped). */
  schedule(): void;
  /** Drops the pending run (the caller runs the function itself now, e.g. on Enter). */
  cancel(): void;
}

export function debounced(run: () => void, ms: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    schedule() {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        run();
      }, ms);
    },
    cancel,
  };
}
