/** The last moment `nowIso` wrote, and its text. */
let lastMs = Number.NaN;
let lastText = '';

/**
 * `new Date().toISOString()`, written once per millisecond: a busy process stamps many changes in the
 * same millisecond, and V8 formats a date slowly (about a microsecond, most of a stamp's cost).
 */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}

/**
 * What background work reads the time from and waits on: the system's, or a test's that moves only when
 * told (`ManualClock`), so a test drives ticks and lease expiry without sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `run` once, `ms` from now; answers how to cancel it. Never keeps a process alive. */
  after(ms: number, run: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A clock that stands still until `advance` moves it, firing what falls due on the way, in time order. */
export class ManualClock implements Clock {
  private readonly timers = new Set<{ at: number; run: () => void }>();

  constructor(private time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.time;
  }

  after(ms: number, run: () => void): () => void {
    const timer = { at: this.time + Math.max(0, ms), run };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /**
   * Moves the time on by `ms`, firing each timer as the time reaches it; between timers it lets the
   * work they started take its next steps (a database answer takes a turn of the event loop or more).
   */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due);
      this.time = Math.max(this.time, due.at);
      due.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }
}
