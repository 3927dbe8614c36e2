import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { latestCode, mailbox, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** A mail server on a loopback port that accepts everything and keeps what it was sent. */
async function startMailServer(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let data: string[] | undefined;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index = buffer.indexOf('\r\n');
      while (index >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        index = buffer.indexOf('\r\n');
        if (data) {
          if (line === '.') {
            received.push(data.join('\n'));
            data = undefined;
            socket.write('250 queued\r\n');
          } else data.push(line);
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO') socket.write('250-test\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(DIALECTS)('email on %s', (dialect) => {
  let platform: TestPlatform;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  beforeAll(async () => {
    mail = await startMailServer();
    platform = await startTestPlatform({ dialect, env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}` } });
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'true');
  });
  afterAll(async () => {
    await platform?.stop();
    await mail?.close();
  });

  it('sends a verification code through SMTP_URL and marks the outbox message sent', async () => {
    const email = uniqueEmail('smtp');
    const registered = await register(platform, await visitorToken(platform), email, 'correct horse battery');
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    const code = await latestCode(platform, email);
    const sent = mail.received.find((message) => message.includes(`To: ${email}`));
    expect(sent).toContain(`Your verification code is ${code}.`);
    const [stored] = await mailbox(platform, email);
    expect(stored).toMatchObject({ status: 'SENT', kind: 'EMAIL_VERIFICATION_CODE' });
  });

  it('keeps a message it could not deliver, marked failed, and the flow goes on', async () => {
    await mail.close();
    const email = uniqueEmail('smtpdown');
    const registered = await register(platform, await visitorToken(platform), email, 'correct horse battery');
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    const [stored] = await mailbox(platform, email);
    expect(stored).toMatchObject({ status: 'FAILED', kind: 'EMAIL_VERIFICATION_CODE' });
  });
});
