import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_BUNDLE } from '../scripts/build.ts';
import { TEST_ADMIN_API_KEY, TEST_CLIENT_ID } from './support/platform.ts';

/**
 * The request log as an operator reads it: the platform run as in production (`npm start`'s build, in
 * its own process, JSON lines on stdout at LOG_LEVEL=info). Session tokens, codes and states travel in `/oauth2/authorize`
 * and callback URLs; the log keeps their names, never their values.
 */
describe('the request log', () => {
  let child: ChildProcess;
  let url: string;
  let output = '';
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-log-'));
    // the build vitest's global setup made fresh: building again here would empty dist/ while other
    // files start their platforms from it
    child = spawn(process.execPath, ['--enable-source-maps', PLATFORM_BUNDLE], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        CARTWHEEL_ADMIN_API_KEY: TEST_ADMIN_API_KEY,
        CARTWHEEL_DEMO_CLIENT_ID: TEST_CLIENT_ID,
        CARTWHEEL_SEED_DEMO: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (listening) {
          clearInterval(timer);
          resolve(listening[1]!);
        }
      }, 50);
      child.once('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`the platform exited (${code}): ${output}`));
      });
    });
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // the platform ends within its shutdown deadline even when a step hangs; that step is then in its log
      const code = await exited;
      if (code !== 0) console.warn(`the platform ended with ${code} on SIGTERM:\n${output.slice(-2000)}`);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('names the secret query parameters of a request, never their values', async () => {
    const secrets = {
      sessionToken: 'session-token-that-must-not-be-logged',
      state: 'state-value-that-must-not-be-logged',
      code_challenge: 'x'.repeat(43),
    };
    const query = new URLSearchParams({
      client_id: TEST_CLIENT_ID,
      redirect_uri: 'http://127.0.0.1/nowhere',
      response_type: 'code',
      prompt: 'none',
      ...secrets,
    });
    await fetch(`${url}/oauth2/authorize?${query}`, { redirect: 'manual' });
    await fetch(`${url}/auth/callback?code=code-that-must-not-be-logged&state=another-state`, {
      headers: { accept: 'text/html' },
    });
    // the log is written as the requests are answered; wait for both lines
    for (let waited = 0; waited < 5000 && !output.includes('/auth/callback'); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(output).toContain('/oauth2/authorize?');
    expect(output).toContain('sessionToken=[redacted]');
    expect(output).toContain('/auth/callback?code=[redacted]&state=[redacted]');
    expect(output).toContain(`client_id=${TEST_CLIENT_ID}`);
    expect(output).not.toContain('must-not-be-logged');
    expect(output).not.toContain('another-state');
  });
});
