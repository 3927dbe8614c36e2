import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/shared/clock.ts';
import { Workers } from '../src/workers/runtime.ts';
import { freshDatabase, gate } from './bus-support.ts';
import { DIALECTS } from './support/platform.ts';

describe.each(DIALECTS)('the worker runtime, on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof freshDatabase>>;
  let clock: ManualClock;
  const runtimes: Workers[] = [];
  const runtime = () => {
    const workers = new Workers(store.connect().db, { clock });
    runtimes.push(workers);
    return workers;
  };

  beforeEach(async () => {
    store = await freshDatabase(dialect);
    clock = new ManualClock();
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((workers) => workers.stop()));
    await store.drop();
  });

  it('runs a job every interval of the moved clock, and a failed run again at the next tick', async () => {
    const workers = runtime();
    let runs = 0;
    const worker = workers.add({
      name: 'counting',
      everyMs: 1000,
      async run() {
        runs++;
        if (runs === 2) throw new Error('the second run fails');
      },
    });
    const failures: string[] = [];
    workers.onError = (error, name) => failures.push(`${name}: ${(error as Error).message}`);
    workers.start();
    await clock.advance(999);
    expect(runs).toBe(0);
    for (let tick = 1; tick <= 3; tick++) {
      await clock.advance(1000);
      await worker.idle();
    }
    expect(runs).toBe(3);
    expect(failures).toEqual(['counting: the second run fails']);
  });

  it('never runs a job twice at once: a wake-up during a run runs it once more, after', async () => {
    const workers = runtime();
    let running = 0;
    let most = 0;
    let runs = 0;
    let hold = gate();
    const worker = workers.add({
      name: 'single-flight',
      everyMs: 60_000,
      async run() {
        running++;
        runs++;
        most = Math.max(most, running);
        await hold.promise;
        running--;
      },
    });
    workers.start();
    const first = worker.runNow();
    const second = worker.runNow();
    const third = worker.runNow();
    expect(second).toBe(third); // both wait for the one run after the first
    const held = hold;
    hold = gate();
    held.open();
    await first;
    hold.open();
    await second;
    expect({ runs, most }).toEqual({ runs: 2, most: 1 });
  });

  it('over one database, one of two runtimes runs a leased job; the other takes over when its lease expires', async () => {
    const [first, second] = [runtime(), runtime()];
    const runs = { first: 0, second: 0 };
    let stuck = gate();
    const job = (who: 'first' | 'second') => ({
      name: 'leased-job',
      everyMs: 1000,
      leased: true,
      leaseMs: 10_000,
      async run() {
        runs[who]++;
        if (who === 'first' && runs.first === 3) await stuck.promise; // the first process hangs
      },
    });
    const workers = { first: first.add(job('first')), second: second.add(job('second')) };
    first.start();
    await workers.first.runNow(); // the first takes the lease
    second.start();
    for (let tick = 0; tick < 5; tick++) {
      await clock.advance(1000);
      await workers.second.idle();
    }
    expect(runs).toEqual({ first: 3, second: 0 });

    // the first hangs in its third run; its lease (10 s from its last renewal) runs out on the clock
    for (let tick = 0; tick < 5; tick++) {
      await clock.advance(1000);
      await workers.second.idle();
    }
    expect(runs.second).toBe(0);
    for (let tick = 0; tick < 6; tick++) {
      await clock.advance(1000);
      await workers.second.idle();
    }
    expect(runs.second).toBeGreaterThan(0);
    const taken = runs.second;
    await clock.advance(1000);
    await workers.second.idle();
    expect(runs.second).toBe(taken + 1);

    // stopping waits for the run under way
    let stopped = false;
    const stopping = first.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    stuck.open();
    await stopping;
    expect(stopped).toBe(true);
    expect(runs.first).toBe(3);
    stuck = gate();
  });

  it('hands a leased job over at once when its holder stops cleanly', async () => {
    const [first, second] = [runtime(), runtime()];
    const runs = { first: 0, second: 0 };
    const job = (who: 'first' | 'second') => ({
      name: 'handed-over',
      everyMs: 1000,
      leased: true,
      leaseMs: 60_000,
      async run() {
        runs[who]++;
      },
    });
    const firstWorker = first.add(job('first'));
    const secondWorker = second.add(job('second'));
    first.start();
    await firstWorker.runNow();
    second.start();
    await secondWorker.runNow();
    expect(runs).toEqual({ first: 1, second: 0 });
    await first.stop();
    await clock.advance(1000);
    await secondWorker.idle();
    expect(runs).toEqual({ first: 1, second: 1 });
  });
});
