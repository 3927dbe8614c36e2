/**
 * The published packages as a user gets them: `npm pack` tarballs of the built `@cartwheel/sdk`,
 * `@cartwheel/react` and `@cartwheel/platform`, and fresh apps outside the workspace that install them.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const execFileAsync = promisify(execFile);

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit throws with everything it printed. */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeout?: number },
): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeout ?? 120_000,
    });
    return { stdout, stderr };
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string; code?: number };
    throw new Error(
      `${command} ${args.join(' ')} (in ${options.cwd}) failed (${failed.code ?? failed.message}):\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}

export const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

/** The newest modification time under `dir` (0 when it is missing). */
export function newest(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let time = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/**
 * Builds `@cartwheel/sdk` and `@cartwheel/react` when their `dist/` is older than their source (`npm
 * test` has just built them; a developer running this file alone after an edit gets them rebuilt). The
 * platform's build is vitest's global setup's; the apps it serves must have been built by `npm run build`.
 */
export async function ensureBuilt(): Promise<void> {
  // two test files may ask at once: one builds, the other waits and finds the build fresh
  await withLock(path.join(os.tmpdir(), 'cartwheel-library-build.lock'), buildStaleLibraries);
  const unbuilt = ['storefront', 'backoffice', 'hosted'].filter(
    (app) => !fs.existsSync(path.join(ROOT, 'apps', app, 'dist/index.html')),
  );
  if (unbuilt.length > 0) throw new Error(`apps not built (${unbuilt.join(', ')}): run npm run build first`);
}

async function buildStaleLibraries(): Promise<void> {
  const stale = ['sdk', 'react'].filter((name) => {
    const dir = path.join(ROOT, 'packages', name);
    const built = fs.existsSync(path.join(dir, 'dist/index.js')) ? newest(path.join(dir, 'dist')) : 0;
    return (
      Math.max(newest(path.join(dir, 'src')), fs.statSync(path.join(dir, 'package.json')).mtimeMs) > built
    );
  });
  if (stale.length > 0) {
    await run('npm', ['run', 'build', ...stale.flatMap((name) => ['-w', `packages/${name}`])], {
      cwd: ROOT,
      timeout: 180_000,
    });
  }
}

/** Runs `task` holding a lock directory (made atomically); a lock older than five minutes is a dead holder's. */
async function withLock(lock: string, task: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is held too long`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await task();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface Tarballs {
  sdk: string;
  react: string;
  platform: string;
}

/** `npm pack` of the three packages into `dir`: what `npm publish` would upload. */
export async function packAll(dir: string): Promise<Tarballs> {
  const { stdout } = await run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      dir,
      '-w',
      'packages/sdk',
      '-w',
      'packages/react',
      '-w',
      'packages/platform',
    ],
    { cwd: ROOT },
  );
  const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ name: string; filename: string }>;
  const file = (name: string) => {
    const found = packed.find((entry) => entry.name === name);
    if (!found) throw new Error(`npm pack made no tarball of ${name}`);
    return path.join(dir, found.filename);
  };
  return {
    sdk: file('@cartwheel/sdk'),
    react: file('@cartwheel/react'),
    platform: file('@cartwheel/platform'),
  };
}

/** The files a tarball holds, as paths inside the package. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['tzf', tarball], { cwd: path.dirname(tarball) });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^package\//, ''));
}

/** A fresh folder outside the workspace (the system's temp folder), so nothing resolves from it. */
export function freshFolder(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cartwheel-${name}-`));
}

/**
 * `npm install` in an app folder, from the tarballs and the public registry: the npm cache `npm ci`
 * filled answers first (`--prefer-offline`), the registry only what the cache lacks.
 */
export async function npmInstall(cwd: string, env: Record<string, string> = {}): Promise<void> {
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env,
    timeout: 240_000,
  });
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/** The version of a package the workspace installed: fresh apps ask for the same, which the npm cache holds. */
export function workspaceVersion(name: string): string {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/**
 * better-sqlite3 compiles SQLite when it is installed and no prebuilt binary can be fetched (here only
 * package registries are reachable): minutes on this machine. The workspace's `npm ci` compiled it once;
 * this hands that binary to its installer as a local prebuild (prebuild-install's
 * `npm_config_better_sqlite3_local_prebuilds`), as a machine with a prebuilt mirror would get it.
 */
export async function sqlitePrebuildEnv(dir: string): Promise<Record<string, string>> {
  const packageDir = path.join(ROOT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  fs.mkdirSync(dir, { recursive: true });
  await run('tar', ['czf', path.join(dir, name), 'build/Release/better_sqlite3.node'], { cwd: packageDir });
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A long-running command (a server), with what it printed so far; `stop` ends it. */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // the whole group: npx runs the command in a child of its own
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}

/** Polls `url` until it answers (any status) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the process serving ${url} ended`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
