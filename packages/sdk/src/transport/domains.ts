/**
 * Domain mappings: how a module's service paths (the specification's, `/v1/carts/current`) become
 * public paths on a host (`/ecom/v1/carts/current`). Data, not code: each module declares its table,
 * keyed by host, with `*` for every host not named (Cartwheel's platform serves the hosted paths).
 */
export type PrefixRule = readonly [servicePrefix: string, publicPrefix: string];
export type DomainMapping = Readonly<Record<string, readonly PrefixRule[]>>;

export const HOSTED_API_HOST = 'www.wixapis.com';

/** The same rules for the hosted API host and every other host. */
export function everyHost(...rules: PrefixRule[]): DomainMapping {
  return { '*': rules };
}

/** Rewrites `servicePath` with the longest matching service prefix of the host's table. */
export function toPublicPath(mapping: DomainMapping, host: string, servicePath: string): string {
  const rules = mapping[host] ?? mapping['*'] ?? [];
  let best: PrefixRule | undefined;
  for (const rule of rules) {
    const [prefix] = rule;
    const matches =
      prefix === '' ||
      servicePath === prefix ||
      (servicePath.startsWith(prefix) && servicePath[prefix.length] === '/');
    if (matches && (!best || prefix.length > best[0].length)) best = rule;
  }
  return best ? best[1] + servicePath.slice(best[0].length) : servicePath;
}
