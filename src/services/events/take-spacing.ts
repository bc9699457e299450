// How often events are taken from the outbox into webhook deliveries and network pushes. Every
// local commit wakes the dispatcher and the pusher; under a steady stream of writes (hundreds of
// group commits a second) taking the few events of each commit on its own costs a read and a
// write transaction per commit, paid by the same event loop that answers the API. Spaced, one
// take collects the events of many commits, and the first commit after a quiet spell is taken at once.

/** At least this long between two takes while commits keep coming (ms); far inside §10's one second. */
export const TAKE_SPACING_MS = 100;

/**
 * At most one start per interval, with one wake-up for whatever had to wait. Also the gap between
 * attempts while the event loop is saturated (background-pacing.ts).
 */
export class TakeSpacing {
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  /** `onDue`: called once when a take that had to wait may run (it wakes the worker). */
  constructor(
    private readonly onDue: () => void,
    private readonly spacingMs = TAKE_SPACING_MS,
  ) {}

  /** Whether a take may run now; when not, onDue is called as soon as it may. */
  mayTake(): boolean {
    const wait = this.last + this.spacingMs - performance.now();
    if (wait <= 0) return true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.onDue();
    }, wait);
    this.timer.unref();
    return false;
  }

  /** A look at the outbox (and a take of what it finds) is starting now. */
  taking(): void {
    this.last = performance.now();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
