/**
 * The JavaScript and CSS each app ships for its first screen: what its built `index.html` loads (its
 * module script, the chunks it preloads, its stylesheets), minified as built and gzipped, so the back
 * office's weight reads beside the storefront's from the same build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../packages/platform/scripts/build.ts';

export interface AppSize {
  app: string;
  files: string[];
  minified: number;
  gzipped: number;
}

export function measureAppSize(app: string): AppSize {
  const dist = path.join(REPO_ROOT, 'apps', app, 'dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // the files the page asks for before anything else: <script src>, <link rel=modulepreload|stylesheet>
  const files = [...html.matchAll(/(?:src|href)="\/?(?:[^"]*\/)?(assets\/[^"]+\.(?:js|css))"/g)].map(
    (match) => match[1] as string,
  );
  let minified = 0;
  let gzipped = 0;
  for (const file of new Set(files)) {
    const bytes = fs.readFileSync(path.join(dist, file));
    minified += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  return { app, files: [...new Set(files)], minified, gzipped };
}
