import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { OAuthClients, originAllowed, originOf, redirectUriAllowed } from '../oauth/clients.ts';

/** The emails identity sends: codes, password notices, reset and activation links. */
export class IdentityEmails {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly mailer: Mailer,
    private readonly options: { publicUrl: string; storeName: string },
  ) {}

  async code(to: string, code: string): Promise<void> {
    await this.mailer.send({
      kind: 'EMAIL_VERIFICATION_CODE',
      to,
      subject: `${code} is your ${this.options.storeName} verification code`,
      text: [
        `Your verification code is ${code}.`,
        `It works for 15 minutes. If you didn't try to sign in to ${this.options.storeName}, ignore this email.`,
      ].join('\n\n'),
    });
  }

  /** The notice after a password change or reset: the owner learns of one they did not make. */
  async passwordChanged(to: string): Promise<void> {
    await this.mailer.send({
      kind: 'PASSWORD_CHANGED',
      to,
      subject: `Your ${this.options.storeName} password was changed`,
      text: [
        `The password of your account at ${this.options.storeName} was just changed, and every other place you were signed in was signed out.`,
        `If it wasn't you, choose a new password now: ${this.options.publicUrl}/auth/forgot-password`,
      ].join('\n\n'),
    });
  }

  async passwordReset(to: string, link: string): Promise<void> {
    await this.mailer.send({
      kind: 'PASSWORD_RESET',
      to,
      subject: `Reset your password for ${this.options.storeName}`,
      text: [
        `Someone asked to reset the password of your account at ${this.options.storeName}.`,
        `To choose a new password, open this link within an hour:`,
        link,
        `If it wasn't you, ignore this email: your password stays as it is.`,
      ].join('\n\n'),
    });
  }

  async activation(to: string, link: string): Promise<void> {
    await this.mailer.send({
      kind: 'ACCOUNT_ACTIVATION',
      to,
      subject: `Your account at ${this.options.storeName}`,
      text: [
        `An account at ${this.options.storeName} was made for you.`,
        `To choose your password and sign in, open this link within three days:`,
        link,
      ].join('\n\n'),
    });
  }

  /**
   * The reset page's address. A redirect is kept only when the client registered its origin, so a
   * reset link never sends anyone to a stranger's site.
   */
  async resetLink(token: string, redirectUrl: string | undefined, clientId: string | null): Promise<string> {
    const link = new URL(`${this.options.publicUrl}/auth/reset-password`);
    link.searchParams.set('token', token);
    if (redirectUrl && clientId && (await this.clientAllows(clientId, redirectUrl))) {
      link.searchParams.set('redirect', redirectUrl);
    }
    return link.toString();
  }

  /** The reset page may send the member back to `url` only where the client's codes may go. */
  private async clientAllows(clientId: string, url: string): Promise<boolean> {
    const origin = originOf(url);
    const client = origin ? await new OAuthClients(this.db).find(clientId) : undefined;
    return !!client && !!origin && (originAllowed(client, origin) || redirectUriAllowed(client, url));
  }
}
