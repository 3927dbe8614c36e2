import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import { Lease } from './lease.ts';
import { Worker, type WorkerSpec } from './worker.ts';

export interface WorkersOptions {
  clock?: Clock;
  /** A run failed; it is retried at the next tick. */
  onError?: (error: unknown, worker: string) => void;
}

/**
 * Every background job of one process: the platform's only timers. Jobs are added as the services
 * that own them are built, start together (`start`) and stop together (`stop`, which waits for the runs
 * under way and gives up the leases).
 */
export class Workers {
  readonly clock: Clock;
  /** This process's name in the lease table. */
  readonly holder = newId();
  /** Where failed runs are reported; the platform points it at its logger once it has one. */
  onError: (error: unknown, worker: string) => void;
  private readonly workers = new Map<string, Worker>();
  private started = false;

  constructor(
    private readonly db: Kysely<Tables>,
    options: WorkersOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? (() => {});
  }

  /** Adds a job; it starts at once when the runtime has started. */
  add(spec: WorkerSpec): Worker {
    if (this.workers.has(spec.name)) throw new Error(`a worker named ${spec.name} exists already`);
    const lease = spec.leased
      ? new Lease(
          this.db,
          spec.name,
          this.holder,
          this.clock,
          spec.leaseMs ?? Math.max(30_000, 3 * spec.everyMs),
        )
      : undefined;
    const worker = new Worker(spec, this.clock, lease, (error, name) => this.onError(error, name));
    this.workers.set(spec.name, worker);
    if (this.started) worker.start();
    return worker;
  }

  get(name: string): Worker | undefined {
    return this.workers.get(name);
  }

  names(): string[] {
    return [...this.workers.keys()];
  }

  start(): void {
    this.started = true;
    for (const worker of this.workers.values()) worker.start();
  }

  /** Stops every job, waiting for the runs under way. */
  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
  }
}
