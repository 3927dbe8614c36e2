import type { Transporter } from 'nodemailer';
import type { Delivery } from './mailer.ts';

/**
 * Delivery to the mail server `SMTP_URL` names (`smtp://user:pass@host:587`, `smtps://...:465`),
 * through nodemailer: STARTTLS, authentication and message encoding are its job, not ours.
 */
export function smtpDelivery(smtpUrl: string | undefined, from: string): Delivery | undefined {
  if (!smtpUrl) return undefined;
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got ${url.protocol}`);
  }
  // nodemailer is loaded by the first message, not at every start of a process that may send none
  let transport: Promise<Transporter> | undefined;
  return async (message) => {
    // a server that does not answer is a failure within a minute, well inside a caller's claim on its work
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 },
        { from },
      ),
    );
    await (await transport).sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  };
}
