/**
 * `npm pack` / `npm publish` of @cartwheel/platform: `add` (prepack) copies the built apps
 * (`apps/{storefront,backoffice,hosted}/dist`) into the package's own `apps/` folder, where an installed
 * platform finds them (platform.ts, DEFAULT_APPS); `remove` (postpack) takes the copies away again, so
 * the platform in this repository keeps serving the apps' fresh builds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PLATFORM_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_APPS = path.resolve(PLATFORM_DIR, '../../apps');
const PACKED_APPS = path.join(PLATFORM_DIR, 'apps');
export const APPS = ['storefront', 'backoffice', 'hosted'] as const;

export function addApps(): void {
  fs.rmSync(PACKED_APPS, { recursive: true, force: true });
  const missing = [
    path.join(PLATFORM_DIR, 'dist/main.js'),
    ...APPS.map((app) => path.join(REPO_APPS, app, 'dist/index.html')),
  ].filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `@cartwheel/platform is packed from its build: run npm run build first (missing ${missing.join(', ')})`,
    );
  }
  for (const app of APPS) {
    fs.cpSync(path.join(REPO_APPS, app, 'dist'), path.join(PACKED_APPS, app, 'dist'), { recursive: true });
  }
}

export function removeApps(): void {
  fs.rmSync(PACKED_APPS, { recursive: true, force: true });
}

const step = process.argv[2];
if (step === 'add') addApps();
else if (step === 'remove') removeApps();
else throw new Error(`usage: pack-apps.ts add|remove (got ${step})`);
