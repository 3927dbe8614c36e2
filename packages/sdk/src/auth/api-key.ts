import type { AuthStrategy } from './strategy.ts';

export interface ApiKeyStrategyOptions {
  apiKey: string;
  /** The hosted platform wants the site an API key acts on; Cartwheel's platform has one site. */
  siteId?: string;
  accountId?: string;
}

/** An admin API key, sent raw in `Authorization` (wire contract, Requests). For servers only. */
export function ApiKeyStrategy(options: ApiKeyStrategyOptions): AuthStrategy {
  const headers: Record<string, string> = { Authorization: options.apiKey };
  if (options.siteId) headers['wix-site-id'] = options.siteId;
  if (options.accountId) headers['wix-account-id'] = options.accountId;
  return { getAuthHeaders: async () => headers };
}
