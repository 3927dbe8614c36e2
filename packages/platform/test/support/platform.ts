import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { PLATFORM_BUNDLE, PLATFORM_MODULE, productionNodeFlags, REPO_ROOT } from '../../scripts/build.ts';
import { configFromEnv, type PlatformConfig } from '../../src/config.ts';
import type { DeclaredRoute } from '../../src/http/app.ts';
import {
  buildHttpApp,
  openServices,
  type Platform,
  type Services,
  startPlatform,
} from '../../src/platform.ts';
import { createTestDatabase } from './databases.ts';

export type DialectName = 'sqlite' | 'postgres';
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/**
 * The databases of a suite whose subject is decided at the edge, before anything is stored: input
 * refused with its field violation, a caller refused a route. No database changes that answer, so it
 * runs once, on PostgreSQL, whose stricter types (no NUL in text, bounded integers and timestamps) would
 * turn a refusal that slipped through to storage into an error SQLite lets by; what is stored is proven on
 * both by the other suites. `CARTWHEEL_TEST_DATABASES=both` runs these on both too.
 */
export const EDGE_DIALECTS: DialectName[] =
  process.env.CARTWHEEL_TEST_DATABASES === 'both' ? DIALECTS : ['postgres'];

/** The PostgreSQL server on this machine (`.ci/run` starts it); tests make a database each. */
export { POSTGRES_ADMIN_URL } from './databases.ts';

export const TEST_ADMIN_API_KEY = 'cw_admin_test_key_for_integration_tests_only';
export const TEST_CLIENT_ID = '9f1d3c59-8d3a-4b3e-9a57-5a4c7c0d1e01';

/**
 * Which platform the tests talk to: `built` (the default, and what CI runs) starts `dist/main.js` in a
 * process of its own, exactly as `npm start` does; `source` (`CARTWHEEL_TEST_PLATFORM=source`) runs the
 * TypeScript source inside the test process, a faster loop while changing the platform.
 */
export const TEST_PLATFORM_KIND: 'built' | 'source' =
  process.env.CARTWHEEL_TEST_PLATFORM === 'source' ? 'source' : 'built';

export interface TestPlatform {
  /** `http://127.0.0.1:<port>`: where the platform under test answers. */
  url: string;
  port: number;
  adminApiKey: string;
  /**
   * The store's domains opened in the test's own process over the platform's database, as a second
   * platform process would hold them: for setting a store up and looking into it. Their in-memory
   * caches are the test process's, not those of the platform answering `url`.
   */
  services: Services;
  /** Where its data lives: another platform process can be started over the same. */
  database: { dataDir: string; databaseUrl: string | undefined };
  /** Every route the platform declares, with who may call it (from the same source the build is made of). */
  declaredRoutes(): Promise<DeclaredRoute[]>;
  /**
   * Kills the platform's process outright (SIGKILL, as a crash or an out-of-memory kill would), its
   * database left as the crash left it; `stop` still removes it. Only for a platform in its own process.
   */
  kill(): Promise<void>;
  /** Stops the platform and removes its database. */
  stop(): Promise<void>;
}

/**
 * A real platform on a loopback port over a fresh database file (or PostgreSQL database): the built
 * platform in a process of its own, unless `CARTWHEEL_TEST_PLATFORM=source`. The database is a copy
 * of the run's migrated template (support/databases.ts) unless `prepare` shapes an empty one.
 */
export async function startTestPlatform(
  options: {
    dialect?: DialectName;
    seedDemo?: boolean;
    env?: Record<string, string>;
    /** Runs on the fresh, empty database before the platform opens it (an older version's data, say). */
    prepare?: (database: { dataDir: string; databaseUrl: string | undefined }) => Promise<void>;
    /**
     * A second process of a store: this platform opens that one's database (as platforms behind a
     * load balancer do) and leaves it in place when it stops.
     */
    sharing?: TestPlatform;
    /**
     * Runs the built platform (`dist/index.js`) inside the test's process, for the few suites that
     * reach into the running platform itself: a payment provider replaced to lose its answer, the
     * page anchors a process keeps. `services` is then the platform's own.
     */
    inProcess?: boolean;
  } = {},
): Promise<TestPlatform> {
  const dialect = options.dialect ?? 'sqlite';
  const shared = options.sharing?.database;
  // migrated already (a copy of the run's template) unless the test shapes the empty database itself
  const fresh = shared
    ? undefined
    : await createTestDatabase(dialect, { prefix: 'cartwheel_test', migrated: !options.prepare });
  const dataDir = shared?.dataDir ?? fresh!.dataDir;
  const databaseUrl = shared ? shared.databaseUrl : fresh!.databaseUrl;
  // A port known before start, so the links the platform hands out (image urls) point back at it.
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    // processes of one store share its public address (a load balancer's)
    PUBLIC_URL: options.sharing?.services.config.publicUrl ?? `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    CARTWHEEL_ADMIN_API_KEY: TEST_ADMIN_API_KEY,
    CARTWHEEL_DEMO_CLIENT_ID: TEST_CLIENT_ID,
    CARTWHEEL_SEED_DEMO: String(options.seedDemo ?? false),
    ...options.env,
  };
  const config: PlatformConfig = { ...configFromEnv(env), databaseUrl };
  const removeData = async () => fresh?.remove();
  try {
    await options.prepare?.({ dataDir, databaseUrl });
    const running =
      TEST_PLATFORM_KIND === 'source'
        ? await startInProcess(config, startPlatform)
        : options.inProcess
          ? await startInProcess(
              config,
              (await import(PLATFORM_MODULE)).startPlatform as typeof startPlatform,
            )
          : await startBuilt(env);
    // the test's view of the store beside a platform in its own process, opened once the platform has
    // made and migrated its database
    const view =
      running.platform === undefined
        ? await openServices({ ...config, logLevel: 'silent' }).catch(async (error: unknown) => {
            await running.stop();
            throw error;
          })
        : undefined;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      adminApiKey: TEST_ADMIN_API_KEY,
      services: running.platform?.services ?? view!.services,
      database: { dataDir, databaseUrl },
      async declaredRoutes() {
        if (running.platform) return running.platform.app.declaredRoutes;
        const app = await buildHttpApp(view!);
        await app.close();
        return app.declaredRoutes;
      },
      async kill() {
        if (!running.kill) throw new Error('only a platform in its own process can be killed');
        await running.kill();
      },
      async stop() {
        await running.stop();
        await view?.close();
        await removeData();
      },
    };
  } catch (error) {
    await removeData();
    throw error;
  }
}

interface Running {
  /** The platform itself, when it runs in the test's process. */
  platform?: Platform;
  /** SIGKILL, for a platform in a process of its own. */
  kill?(): Promise<void>;
  stop(): Promise<void>;
}

/** The platform in the test's own process: from its TypeScript source, or its build. */
async function startInProcess(config: PlatformConfig, start: typeof startPlatform): Promise<Running> {
  const platform = await start(config);
  return { platform, stop: () => platform.close() };
}

/** How long a built platform may take to start (migrations on a fresh PostgreSQL database, the demo seed). */
const START_DEADLINE_MS = 60_000;
/** How long it may take to stop after SIGTERM before it is killed (its own deadline is 10 s). */
const STOP_DEADLINE_MS = 15_000;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * `node <the start script's flags> packages/platform/dist/main.js`, configured by `env` alone, as `npm
 * start` runs it; ready once it prints where it runs. Its output is kept to explain a failed start.
 */
async function startBuilt(env: Record<string, string>): Promise<Running> {
  if (!fs.existsSync(PLATFORM_BUNDLE)) {
    throw new Error(`the platform is not built (${PLATFORM_BUNDLE} is missing): run \`npm run build\` first`);
  }
  const child = spawn(process.execPath, [...productionNodeFlags(), PLATFORM_BUNDLE], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then(() => children.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_DEADLINE_MS);
    const listen = () => {
      if (output.includes('Cartwheel is running at')) {
        clearTimeout(timer);
        child.stdout!.off('data', listen);
        resolve(true);
      }
    };
    child.stdout!.on('data', listen);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the built platform did not start (exit ${child.exitCode}):\n${output}`);
  }
  return {
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
