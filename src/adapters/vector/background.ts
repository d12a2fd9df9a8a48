/** Work done a slice at a time; `runSlice` returns true while work remains. */
export interface SlicedWork {
  runSlice(): boolean;
}

/**
 * Runs `work` one slice per event-loop turn (setImmediate, after pending I/O) until it is done or cancelled.
 * The work is held weakly between slices, so an index its owner dropped stops building once collected, and
 * the timer is unref'd so an unfinished build never keeps the process alive. Returns a cancel function.
 */
export function runInSlices(work: SlicedWork): () => void {
  const ref = new WeakRef(work);
  let cancelled = false;
  const tick = (): void => {
    if (cancelled) return;
    const w = ref.deref();
    if (w?.runSlice()) setImmediate(tick).unref();
  };
  setImmediate(tick).unref();
  return () => {
    cancelled = true;
  };
}
