import { createPrivateKey, createSign, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Clock } from '../shared/clock.ts';

const generate = promisify(generateKeyPair);

/** How long a delivery's token is valid: the hosted client refuses an expired one. */
export const DELIVERY_TOKEN_TTL_S = 60 * 60;

/**
 * Each app's RSA key pair (2048 bits), made the first time the app registers an endpoint or asks for
 * its public key, and kept: deliveries to the app's endpoints are RS256 JWTs signed with the private
 * key, which the app checks with the public one (`AppStrategy({ publicKey })` of the hosted client,
 * `createWebhookReceiver({ publicKey })` of Cartwheel's SDK).
 */
export class AppKeys {
  /** Private keys already parsed, by app: a delivery signs without reading the table. */
  private readonly signing = new Map<string, KeyObject>();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly clock: Clock,
  ) {}

  /** The app's public key (PEM, SPKI), made on the first call; processes racing make one. */
  async publicKey(appId: string): Promise<string> {
    return (await this.ensure(appId)).public_key;
  }

  /** `{data, iat, exp}` as an RS256 JWT signed with the app's key. */
  async sign(appId: string, data: string): Promise<string> {
    let key = this.signing.get(appId);
    if (!key) {
      key = createPrivateKey((await this.ensure(appId)).private_key);
      this.signing.set(appId, key);
    }
    const iat = Math.floor(this.clock.now() / 1000);
    const head = base64Url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const claims = base64Url(JSON.stringify({ data, iat, exp: iat + DELIVERY_TOKEN_TTL_S }));
    const signature = createSign('RSA-SHA256').update(`${head}.${claims}`).sign(key);
    return `${head}.${claims}.${signature.toString('base64url')}`;
  }

  private async ensure(appId: string) {
    const existing = await this.read(appId);
    if (existing) return existing;
    const pair = await generate('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await this.db
      .insertInto('webhook_app_keys')
      .values({
        app_id: appId,
        public_key: pair.publicKey,
        private_key: pair.privateKey,
        created_at: new Date(this.clock.now()).toISOString(),
      })
      // another process made the app's pair first: theirs is the one
      .onConflict((conflict) => conflict.column('app_id').doNothing())
      .execute();
    return (await this.read(appId))!;
  }

  private read(appId: string) {
    return this.db
      .selectFrom('webhook_app_keys')
      .select(['public_key', 'private_key'])
      .where('app_id', '=', appId)
      .executeTakeFirst();
  }
}

const base64Url = (text: string) => Buffer.from(text).toString('base64url');
