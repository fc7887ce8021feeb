/**
 * Long loops over a folder's objects (100,000 of them) on the thread that
 * starts a pull, plan or apply (the extension host's) let others run, timers
 * and the window's requests, once a slice of the loop has taken `sliceMs`:
 * that thread is never held up much longer, however large the folder.
 */
const sliceMs = 10;

/** Lets others run on this thread: what is due runs (timers, I/O, the window's requests) before this goes on. */
function letOthersRun(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A long loop's clock: `due()` once this slice has taken its time, then `await pause()`. */
export class Slices {
  private start = performance.now();
  private calls = 0;

  /** Whether this slice has run its time (the clock is read every 8th call: an item of a loop may take 0.1 µs). */
  due(): boolean {
    return (++this.calls & 7) === 0 && performance.now() - this.start >= sliceMs;
  }

  /** Lets others run, then starts the next slice. */
  async pause(): Promise<void> {
    await letOthersRun();
    this.start = performance.now();
  }
}

/** `each` over `items`, letting others run between slices. */
export async function inSlices<T>(items: Iterable<T>, each: (item: T) => void): Promise<void> {
  const slices = new Slices();
  for (const item of items) {
    each(item);
    if (slices.due()) await slices.pause();
  }
}

/** `each` over a Map's entries as they are when it starts (an entry removed meanwhile is skipped), letting others run between slices. */
export async function inSlicesOf<T>(map: ReadonlyMap<string, T>, each: (key: string, value: T) => void): Promise<void> {
  await inSlices([...map.keys()], (key) => {
    const value = map.get(key);
    if (value !== undefined) each(key, value);
  });
}
