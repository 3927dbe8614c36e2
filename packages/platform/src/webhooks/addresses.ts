import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go (SSRF): https to a public address; http only to loopback, and only when
 * `CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK=true` (a developer's receiver on their own machine). Private,
 * link-local (the cloud metadata service at 169.254.169.254 among them), shared, reserved and multicast
 * addresses are refused, when an endpoint is registered and again on the address a delivery connects to
 * (a name may resolve elsewhere later).
 */

export interface AddressPolicy {
  /** `CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK`: loopback receivers, over http or https. */
  allowHttpLoopback: boolean;
}

/** Why a URL or an address is refused, in words an app's developer can act on. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Never a webhook's destination (loopback aside, which the policy decides). */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local, the metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses through a gateway
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address
  ['fc00::', 7], // unique local (AWS's metadata at fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) stands for, else the address itself. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1] as string, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Throws `RefusedAddress` unless a delivery may connect to `address` over `protocol`. */
export function checkAddress(address: string, protocol: 'http:' | 'https:', policy: AddressPolicy): void {
  const { address: plain, family } = unmapped(address);
  if (isIP(plain) === 0) throw new RefusedAddress(`${address} is not an IP address`);
  if (LOOPBACK.check(plain, family)) {
    if (policy.allowHttpLoopback) return;
    throw new RefusedAddress(`${address} is a loopback address`);
  }
  if (REFUSED.check(plain, family)) {
    throw new RefusedAddress(`${address} is a private, link-local or reserved address`);
  }
  if (protocol === 'http:') throw new RefusedAddress('webhooks go over https');
}

/** The URL an endpoint names, once its form is acceptable: https (or http with loopback allowed), no credentials. */
export function parseEndpointUrl(text: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedAddress('is not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttpLoopback)) {
    throw new RefusedAddress('webhooks go over https');
  }
  if (url.username || url.password)
    throw new RefusedAddress('a webhook URL carries no user name or password');
  if (url.hash) throw new RefusedAddress('a webhook URL has no fragment');
  return url;
}

/** The host's name without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and checks every address it names (a name that resolves to one public and
 * one private address is refused: which one a connection takes is not ours to choose).
 */
export async function resolveChecked(
  url: URL,
  policy: AddressPolicy,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  const protocol = url.protocol as 'http:' | 'https:';
  if (isIP(host) !== 0) {
    checkAddress(host, protocol, policy);
    return { address: host, family: isIP(host) as 4 | 6 };
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RefusedAddress(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new RefusedAddress(`${host} does not resolve`);
  for (const { address } of addresses) checkAddress(address, protocol, policy);
  const first = addresses[0] as { address: string; family: number };
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
