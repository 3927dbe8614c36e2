import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { latestCode, mailbox, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { startMailServer } from './support/mail-server.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

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
