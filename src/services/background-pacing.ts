// Webhook deliveries and network pushes run on the event loop that answers the API. While that
// loop is saturated (requests queue behind each other), every attempt started is taken from the
// API's throughput, and nothing is gained by hurrying: the outbox keeps the work durable and in
// order. So while the loop is saturated, attempts start at a slow pace; once it has room again,
// at full speed. A division's normal load never saturates it; a burst of writes does, briefly.
import { performance } from 'node:perf_hooks';
import { TakeSpacing } from './events/take-spacing.js';

/** How often the loop's utilisation is sampled (ms). */
const WINDOW_MS = 100;
/** The share of a window the loop spent busy at which it counts as saturated. */
const SATURATED = 0.9;
/** While saturated: at most one attempt started per this many ms, per worker. */
export const PACED_GAP_MS = 50;

export class BackgroundPacing {
  private sample = performance.eventLoopUtilization();
  private sampledAt = performance.now();
  private saturated = false;
  /** The gap between starts while saturated; it calls onDue once when the next may start. */
  private readonly gap: TakeSpacing;

  /** `onDue`: called once when attempts held back by the pace may start (it wakes the worker). */
  constructor(onDue: () => void) {
    this.gap = new TakeSpacing(onDue, PACED_GAP_MS);
  }

  /**
   * How many of `free` slots may take an attempt now: all of them unless the loop is saturated,
   * then one per PACED_GAP_MS (and onDue is called when the next may start).
   */
  allow(free: number): number {
    if (free <= 0) return 0;
    if (!this.isSaturated(performance.now())) return free;
    if (!this.gap.mayTake()) return 0;
    this.gap.taking();
    return 1;
  }

  stop(): void {
    this.gap.stop();
  }

  private isSaturated(now: number): boolean {
    if (now - this.sampledAt >= WINDOW_MS) {
      const current = performance.eventLoopUtilization();
      this.saturated = performance.eventLoopUtilization(current, this.sample).utilization >= SATURATED;
      this.sample = current;
      this.sampledAt = now;
    }
    return this.saturated;
  }
}
