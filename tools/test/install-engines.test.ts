import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` on the oldest Node the repository declares (`engines.node`, what the README names) installs
 * nothing that asks for a newer one: npm would only warn (EBADENGINE), and the package may then fail at
 * run time on that Node.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

describe('the Node versions the installed packages ask for', () => {
  const declared = String(manifest.engines?.node ?? '');
  const oldest = semver.minVersion(declared);

  it('the repository declares the Node it runs on, and the README names it', () => {
    expect(oldest, `engines.node is ${JSON.stringify(declared)}`).not.toBeNull();
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`Node.js ${oldest!.major}`);
  });

  it('every package the lock file installs runs on the oldest Node the repository declares', () => {
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } }>)
      .filter(([location, entry]) => location !== '' && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(oldest!, entry.engines!.node!, { includePrerelease: true }))
      .map(([location, entry]) => `${location} wants node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
