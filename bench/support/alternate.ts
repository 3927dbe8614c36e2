import type { Result as LoadRun } from 'autocannon';
import { mean, median } from './stats.ts';

/** One figure of load: the platform beside its baseline, measured in alternation. */
export interface LoadFigure {
  /** Requests per second, mean over the run. */
  platformRps: number;
  baselineRps: number;
  /** Platform over baseline. */
  ratio: number;
  platformP99Ms: number;
  baselineP99Ms: number;
  /** Non-2xx answers and socket errors the platform gave during the run: a figure with any is void. */
  platformFailures: number;
  /** What the platform answered the recorded request (a figure for anything but 200 is void). */
  status: number;
}

/** How long a load figure runs: each side's warm-up, then the measured seconds in turns. */
export interface LoadTiming {
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
}

/** The run lengths every load figure uses: 3 s warm-up and 8 s in four turns, or a smoke check's. */
export const loadTiming = (quick: boolean): LoadTiming =>
  quick
    ? { warmupSeconds: 1, durationSeconds: 2, rounds: 1 }
    : { warmupSeconds: 3, durationSeconds: 8, rounds: 4 };

/**
 * Warms each side up, then measures them turn about in short rounds: a slow spell of a shared machine
 * then falls on both sides alike, not on whichever happened to run during it.
 */
export async function measureInAlternation(
  run: (side: 'platform' | 'baseline', seconds: number) => Promise<LoadRun>,
  timing: LoadTiming,
  status: number,
): Promise<LoadFigure> {
  await run('platform', timing.warmupSeconds);
  await run('baseline', timing.warmupSeconds);
  const base: LoadRun[] = [];
  const ours: LoadRun[] = [];
  for (let round = 0; round < timing.rounds; round++) {
    base.push(await run('baseline', timing.durationSeconds / timing.rounds));
    ours.push(await run('platform', timing.durationSeconds / timing.rounds));
  }
  const rps = (results: LoadRun[]) => mean(results.map((result) => result.requests.average));
  const p99 = (results: LoadRun[]) => median(results.map((result) => result.latency.p99));
  return {
    platformRps: rps(ours),
    baselineRps: rps(base),
    ratio: rps(ours) / rps(base),
    platformP99Ms: p99(ours),
    baselineP99Ms: p99(base),
    platformFailures: ours.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    status,
  };
}
