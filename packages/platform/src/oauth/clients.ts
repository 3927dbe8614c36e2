import type { FieldViolation } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Settings } from '../settings/settings.ts';
import { invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

export interface OAuthClient {
  id: string;
  name: string;
  /**
   * Exact redirect URIs (RFC 6749 §3.1.2.2, compared after URL normalisation). An entry ending in `/*`
   * allows every path under it on that origin, for the platform's own pages.
   */
  redirectUris: string[];
  /** Origins (`http://localhost:5173`) whose pages may embed a `web_message` answer. */
  allowedOrigins: string[];
  createdDate: string;
}

export interface OAuthClientInput {
  name?: unknown;
  redirectUris?: unknown;
  allowedOrigins?: unknown;
}

/** Registered OAuth clients: who may ask for codes, and where the codes may go. */
export class OAuthClients {
  constructor(private readonly db: Kysely<Tables>) {}

  async find(clientId: string): Promise<OAuthClient | undefined> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('id', '=', clientId)
      .executeTakeFirst();
    return row ? clientOf(row) : undefined;
  }

  async get(clientId: string): Promise<OAuthClient> {
    const client = await this.find(clientId);
    if (!client) throw notFound('OAuth client', clientId);
    return client;
  }

  async list(): Promise<OAuthClient[]> {
    const rows = await this.db.selectFrom('oauth_clients').selectAll().orderBy('created_at').execute();
    return rows.map(clientOf);
  }

  /** Registers a client (admin): a name, its redirect URIs and its allowed origins. */
  async register(input: OAuthClientInput): Promise<OAuthClient> {
    const problems: FieldViolation[] = [];
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) problems.push(violation('name', 'is required', 'REQUIRED_FIELD'));
    const redirectUris = redirectUrisOf(input.redirectUris ?? [], 'redirectUris', problems);
    const allowedOrigins = originsOf(input.allowedOrigins ?? [], 'allowedOrigins', problems);
    if (problems.length > 0) throw invalidArgument(problems);
    const client: OAuthClient = {
      id: newId(),
      name,
      redirectUris,
      allowedOrigins,
      createdDate: new Date().toISOString(),
    };
    await this.db.insertInto('oauth_clients').values(rowOf(client)).execute();
    return client;
  }

  /**
   * Changes a client (admin). `redirectUris` / `allowedOrigins` replace the lists; `addRedirectUris` /
   * `addAllowedOrigins` add to them.
   */
  async update(
    clientId: string,
    input: OAuthClientInput & { addRedirectUris?: unknown; addAllowedOrigins?: unknown },
  ): Promise<OAuthClient> {
    const client = await this.get(clientId);
    const problems: FieldViolation[] = [];
    const next = { ...client };
    if (input.name !== undefined) {
      if (typeof input.name !== 'string' || !input.name.trim())
        problems.push(violation('name', 'must not be empty', 'MIN_LENGTH'));
      else next.name = input.name.trim();
    }
    if (input.redirectUris !== undefined)
      next.redirectUris = redirectUrisOf(input.redirectUris, 'redirectUris', problems);
    if (input.allowedOrigins !== undefined)
      next.allowedOrigins = originsOf(input.allowedOrigins, 'allowedOrigins', problems);
    if (input.addRedirectUris !== undefined)
      next.redirectUris = union(
        next.redirectUris,
        redirectUrisOf(input.addRedirectUris, 'addRedirectUris', problems),
      );
    if (input.addAllowedOrigins !== undefined)
      next.allowedOrigins = union(
        next.allowedOrigins,
        originsOf(input.addAllowedOrigins, 'addAllowedOrigins', problems),
      );
    if (problems.length > 0) throw invalidArgument(problems);
    await this.db
      .updateTable('oauth_clients')
      .set({
        name: next.name,
        redirect_uris: JSON.stringify(next.redirectUris),
        allowed_origins: JSON.stringify(next.allowedOrigins),
      })
      .where('id', '=', clientId)
      .execute();
    return next;
  }
}

/** RFC 6749 §3.1.2.3 / Security BCP §4.1.3: exact match, but for an entry's explicit `/*` path wildcard. */
export function redirectUriAllowed(client: OAuthClient, redirectUri: string): boolean {
  const candidate = normalised(redirectUri);
  if (!candidate) return false;
  return client.redirectUris.some((entry) => {
    if (entry.endsWith('/*')) {
      const base = normalised(entry.slice(0, -1));
      return base !== undefined && candidate.startsWith(base) && sameOrigin(base, candidate);
    }
    return normalised(entry) === candidate;
  });
}

export function originAllowed(client: OAuthClient, origin: string): boolean {
  return client.allowedOrigins.includes(origin);
}

/** The origin of a URL, or undefined when it is not an absolute http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The demo store's OAuth client: created on first start, its id printed for the storefront to use. */
export class DemoClient {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly settings: Settings,
  ) {}

  /**
   * Returns the demo client's id: the configured one (`CARTWHEEL_DEMO_CLIENT_ID`), else the one made on
   * first start. Registers it, with every page of the platform's own origin, if it is not registered
   * yet; adds `extra` redirect URIs and origins (`CARTWHEEL_DEMO_REDIRECT_URIS`, `..._ALLOWED_ORIGINS`).
   */
  async ensure(
    configuredId: string | undefined,
    publicUrl: string,
    extra: { redirectUris?: string[]; allowedOrigins?: string[] } = {},
  ): Promise<string> {
    const clientId = configuredId ?? (await this.settings.getOrCreate('oauth.demo_client_id', newId)).value;
    const origin = new URL(publicUrl).origin;
    const problems: FieldViolation[] = [];
    const extraUris = redirectUrisOf(extra.redirectUris ?? [], 'CARTWHEEL_DEMO_REDIRECT_URIS', problems);
    const extraOrigins = originsOf(extra.allowedOrigins ?? [], 'CARTWHEEL_DEMO_ALLOWED_ORIGINS', problems);
    if (problems.length > 0) {
      throw new Error(problems.map((problem) => `${problem.field}: ${problem.description}`).join('; '));
    }
    const redirectUris = union([`${origin}/auth/callback`, `${origin}/`, `${origin}/*`], extraUris);
    const allowedOrigins = union([origin], extraOrigins);
    const existing = await new OAuthClients(this.db).find(clientId);
    if (!existing) {
      await this.db
        .insertInto('oauth_clients')
        .values(
          rowOf({ id: clientId, name: 'Demo store', redirectUris, allowedOrigins, createdDate: nowIso() }),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return clientId;
    }
    const mergedUris = union(existing.redirectUris, redirectUris);
    const mergedOrigins = union(existing.allowedOrigins, allowedOrigins);
    if (
      mergedUris.length !== existing.redirectUris.length ||
      mergedOrigins.length !== existing.allowedOrigins.length
    ) {
      await this.db
        .updateTable('oauth_clients')
        .set({ redirect_uris: JSON.stringify(mergedUris), allowed_origins: JSON.stringify(mergedOrigins) })
        .where('id', '=', clientId)
        .execute();
    }
    return clientId;
  }
}

const nowIso = () => new Date().toISOString();

function clientOf(row: Tables['oauth_clients']): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    createdDate: row.created_at,
  };
}

function rowOf(client: OAuthClient): Tables['oauth_clients'] {
  return {
    id: client.id,
    name: client.name,
    redirect_uris: JSON.stringify(client.redirectUris),
    allowed_origins: JSON.stringify(client.allowedOrigins),
    created_at: client.createdDate,
  };
}

function normalised(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.href;
  } catch {
    return undefined;
  }
}

function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

const union = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])];

/** RFC 6749 §3.1.2: absolute http(s) URIs without a fragment. */
function redirectUrisOf(value: unknown, field: string, problems: FieldViolation[]): string[] {
  if (!Array.isArray(value)) {
    problems.push(violation(field, 'must be a list of URLs', 'FORMAT'));
    return [];
  }
  return value.flatMap((entry, index) => {
    const text = typeof entry === 'string' ? entry.trim() : '';
    const base = text.endsWith('/*') ? text.slice(0, -1) : text;
    const href = normalised(base);
    if (!href || new URL(base).hash) {
      problems.push(
        violation(`${field}[${index}]`, 'must be an absolute http(s) URL without a fragment', 'FORMAT'),
      );
      return [];
    }
    return [text.endsWith('/*') ? `${href}*` : href];
  });
}

function originsOf(value: unknown, field: string, problems: FieldViolation[]): string[] {
  if (!Array.isArray(value)) {
    problems.push(violation(field, 'must be a list of origins', 'FORMAT'));
    return [];
  }
  return value.flatMap((entry, index) => {
    const origin = typeof entry === 'string' ? originOf(entry.trim()) : undefined;
    if (!origin || origin !== (entry as string).trim().replace(/\/$/, '')) {
      problems.push(
        violation(`${field}[${index}]`, 'must be an origin, like http://localhost:5173', 'FORMAT'),
      );
      return [];
    }
    return [origin];
  });
}
