import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildPlatform, productionNodeFlags } from '../../packages/platform/scripts/build.ts';
import { BENCH_DIR, REPO_ROOT } from './paths.ts';

export const BENCH_ADMIN_API_KEY = 'cw_admin_bench_key_not_for_production';
export const BENCH_CLIENT_ID = '6f3a2f0e-7b1d-4c1d-9d0b-5a4c7c0d1e02';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The address the bench's stores are rendered under, whatever port they run on: a catalog built once
 * and measured many times keeps its links (a new PUBLIC_URL would move every stored link at start).
 */
export const BENCH_PUBLIC_URL = 'http://localhost:4000';

/** The production build of the platform, built once per bench run from the source as it is now. */
let bundle: Promise<string> | undefined;
const platformBundle = () => {
  bundle ??= buildPlatform();
  return bundle;
};

/**
 * The platform as it runs in production (`npm start`: the built `dist/main.js`), in its own process,
 * configured by the environment, so the load generator never shares its event loop.
 */
export async function startPlatformProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  seedDemo?: boolean;
  /**
   * `PUBLIC_URL` the address it listens on rather than `BENCH_PUBLIC_URL`, so the links it answers
   * with (the demo products' pictures) load in a browser.
   */
  ownPublicUrl?: boolean;
  /** Extra environment, e.g. `CARTWHEEL_CATALOG_CACHE_MS: '0'` to measure the database path itself. */
  env?: Record<string, string>;
  /** Extra Node.js flags, e.g. `--cpu-prof` to see where a figure's time goes. */
  nodeArgs?: string[];
}): Promise<RunningServer> {
  const port = await freePort();
  const args = [...productionNodeFlags(), ...(options.nodeArgs ?? []), await platformBundle()];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: options.ownPublicUrl ? `http://127.0.0.1:${port}` : BENCH_PUBLIC_URL,
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      CARTWHEEL_ADMIN_API_KEY: BENCH_ADMIN_API_KEY,
      CARTWHEEL_DEMO_CLIENT_ID: BENCH_CLIENT_ID,
      CARTWHEEL_SEED_DEMO: String(options.seedDemo ?? true),
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return running(child, `http://127.0.0.1:${port}`, 'platform');
}

/** A bare `node:http` server answering recorded responses from memory (bench/support/baseline-server.ts). */
export async function startBaselineProcess(responsesFile: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'support/baseline-server.ts'), String(port), responsesFile],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return running(child, `http://127.0.0.1:${port}`, 'baseline server');
}

/** A bare `node:http` server answering every request 200 "hello world" (bench/support/hello-server.ts). */
export async function startHelloWorldProcess(): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'support/hello-server.ts'), String(port)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return running(child, `http://127.0.0.1:${port}`, 'hello-world server');
}

// a bench stopped midway (Ctrl-C) takes its servers with it
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

async function running(child: ChildProcess, url: string, name: string): Promise<RunningServer> {
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${stderr}`);
    try {
      await fetch(`${url}/`, { method: 'HEAD' });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not answer at ${url}:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
