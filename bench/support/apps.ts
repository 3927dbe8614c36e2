import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths.ts';

const run = promisify(execFile);

/**
 * An app's production build (`npm run build -w apps/<app>`, the `vite build` that `npm run build`
 * runs), made once per bench run from the source as it is now, as the platform's bundle is
 * (processes.ts): a fresh clone measures without a build step first, and a stale `dist` is never what
 * is measured. The apps build from the workspace's TypeScript source, so nothing else is built first.
 */
const builds = new Map<string, Promise<void>>();

export function buildApp(app: 'storefront' | 'backoffice'): Promise<void> {
  let built = builds.get(app);
  if (!built) {
    built = run('npm', ['run', 'build', '-w', `apps/${app}`], {
      cwd: REPO_ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => undefined,
      (error: Error & { stderr?: string }) => {
        throw new Error(`apps/${app} did not build: ${error.stderr?.trim() || error.message}`);
      },
    );
    builds.set(app, built);
  }
  return built;
}
