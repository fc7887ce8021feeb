/**
 * What a step costs the thread it runs on, as the benches measure it: the longest this thread itself ran between two
 * ticks of a 2 ms timer (its own work, garbage collection included, counted by Linux in /proc/thread-self/schedstat),
 * beside the longest the timer waited (its own work or, on a shared machine, a wait for a core), and its GC pauses.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** This thread's time on a core so far (ns), as Linux counts it (/proc/thread-self/schedstat); undefined elsewhere. */
const onCore = (): number | undefined => {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
};

/**
 * Starts watching this thread's event loop; the function returns the longest a timer of 2 ms waited beyond its time
 * (`late`, ms) and the longest this thread itself ran between two of its ticks (`pause`: its own work, garbage collection
 * included). The rest of a wait is for a core: on a shared machine of two cores, other processes' or other threads'.
 */
export const longestPause = () => {
  let last = performance.now(),
    ran = onCore(),
    late = 0,
    pause = 0;
  const tick = () => {
    const now = performance.now(),
      core = onCore();
    late = Math.max(late, now - last - 2);
    pause = Math.max(pause, core !== undefined && ran !== undefined ? (core - ran) / 1e6 : now - last);
    [last, ran] = [now, core];
  };
  const timer = setInterval(tick, 2);
  return () => {
    tick();
    clearInterval(timer);
    return { late, pause };
  };
};

/** Starts watching this thread's garbage-collection pauses; the function returns their sum and the longest since, in ms. */
export const gcPauses = () => {
  let sum = 0,
    longest = 0;
  const add = (entries: PerformanceEntry[]) =>
    entries.forEach((e) => {
      sum += e.duration;
      longest = Math.max(longest, e.duration);
    });
  const watch = new PerformanceObserver((list) => add(list.getEntries()));
  watch.observe({ entryTypes: ['gc'] });
  return () => {
    add(watch.takeRecords());
    watch.disconnect();
    return { sum, longest };
  };
};
