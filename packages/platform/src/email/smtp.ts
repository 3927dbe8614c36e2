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
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl, { from }),
    );
    await (await transport).sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  };
}
