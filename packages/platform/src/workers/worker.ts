import { actingAsPlatform } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Lease } from './lease.ts';

/** A named job the runtime runs every `everyMs`. */
export interface WorkerSpec {
  /** Unique in the platform; a leased job's lease row is named after it. */
  name: string;
  everyMs: number;
  /**
   * Over several processes of one store, only the one holding this job's lease runs it (PostgreSQL;
   * SQLite's one process takes the same path). Its runs must be shorter than `leaseMs`.
   */
  leased?: boolean;
  /** How long a lease lasts unless renewed; the default is 30 s or three intervals, the longer. */
  leaseMs?: number;
  /** Runs once as soon as the runtime starts, not only after the first interval. */
  runAtStart?: boolean;
  run(): Promise<void>;
}

/**
 * One background job: runs every `everyMs` and on `runNow`, never twice at once in a process, as the
 * platform (the events it writes name no caller). A failed run is reported and the next tick retries.
 */
export class Worker {
  /** `idle` until started: `runNow` still runs it once (a script's process that never starts the runtime). */
  private state: 'idle' | 'started' | 'stopped' = 'idle';
  private cancelTick: (() => void) | undefined;
  /** The run under way, and the one asked for while it runs (`runNow`): at most one of each. */
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** The last run found the lease held by another process, which runs the job instead. */
  heldElsewhere = false;

  constructor(
    readonly spec: WorkerSpec,
    private readonly clock: Clock,
    private readonly lease: Lease | undefined,
    private readonly failed: (error: unknown, worker: string) => void,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  start(): void {
    if (this.state === 'started') return;
    this.state = 'started';
    if (this.spec.runAtStart) void this.runNow();
    else this.scheduleTick();
  }

  /**
   * Runs the job now, or right after the run under way (what woke it may have come after that run's
   * read); resolves when that run ends. Before `start` it runs once and gives the lease back (a
   * process that only opens the services, asked to deliver now); nothing happens once stopped.
   */
  runNow(): Promise<void> {
    if (this.state === 'stopped') return Promise.resolve();
    if (!this.current) return this.begin();
    this.queued ??= this.current.then(() => {
      this.queued = undefined;
      return this.state === 'stopped' ? undefined : this.begin();
    });
    return this.queued;
  }

  /** Resolves once no run is under way or asked for (a test waits on it after moving the clock). */
  async idle(): Promise<void> {
    while (this.current || this.queued) await (this.queued ?? this.current);
  }

  /** Stops ticking, waits for the run under way, and gives up the lease. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    this.cancelTick?.();
    await this.current;
    await this.queued;
    await this.lease?.release().catch((error: unknown) => this.failed(error, this.name));
  }

  private begin(): Promise<void> {
    this.cancelTick?.();
    const run = actingAsPlatform(() => this.once()).finally(() => {
      this.current = undefined;
      this.scheduleTick();
    });
    this.current = run;
    return run;
  }

  private async once(): Promise<void> {
    try {
      this.heldElsewhere = this.lease !== undefined && !(await this.lease.take());
      if (this.heldElsewhere) return;
      await this.spec.run();
      // a one-off run outside the schedule keeps no lease: the processes that run the job take it
      if (this.state === 'idle') await this.lease?.release();
    } catch (error) {
      this.failed(error, this.name);
    }
  }

  private scheduleTick(): void {
    this.cancelTick?.();
    if (this.state !== 'started') return;
    this.cancelTick = this.clock.after(this.spec.everyMs, () => void this.runNow());
  }
}
