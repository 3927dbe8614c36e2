import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Settings } from '../settings/settings.ts';
import { newId } from '../shared/ids.ts';

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  allowedOrigins: string[];
}

/** The demo store's OAuth client: created on first start, its id printed for the storefront to use. */
export class DemoClient {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly settings: Settings,
  ) {}

  /**
   * Returns the demo client's id: the configured one (`CARTWHEEL_DEMO_CLIENT_ID`), else the one made on
   * first start. Registers it, with the platform's own origin, if it is not registered yet.
   */
  async ensure(configuredId: string | undefined, publicUrl: string): Promise<string> {
    const clientId = configuredId ?? (await this.settings.getOrCreate('oauth.demo_client_id', newId)).value;
    const origin = new URL(publicUrl).origin;
    await this.db
      .insertInto('oauth_clients')
      .values({
        id: clientId,
        name: 'Demo store',
        redirect_uris: JSON.stringify([`${origin}/auth/callback`, `${origin}/`]),
        allowed_origins: JSON.stringify([origin]),
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return clientId;
  }
}
