import net from 'node:net';

/**
 * Points the hosted platform's own client (`@wix/sdk`) at a Cartwheel platform without touching its
 * code or its `fetch`: a network route, as a hosts-file entry plus a TLS-terminating proxy would be.
 *
 * Why not its `host.apiBaseUrl` option: the client always speaks `https://`; with any host but its own
 * it looks its paths up under the "user domain" mappings (`/_api/catalog-reader-server/...`, not
 * `/stores-reader/v1/...`); its visitor reads go to `edge.wixapis.com` (`shouldUseCDN`); and
 * `OAuthStrategy` calls `https://www.wixapis.com/oauth2/token` with the global `fetch`, ignoring both
 * `apiBaseUrl` and the client's `fetch` option. So the client keeps its own hosts and paths, and the
 * connections it opens to them land on the platform's loopback port, in plain HTTP.
 */
export const HOSTED_API_HOSTS: readonly string[] = ['www.wixapis.com', 'edge.wixapis.com'];

// Node's `fetch` (undici) takes its connection pool from this well-known global; the `undici`
// package's `setGlobalDispatcher` writes the same slot.
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface ConnectOptions {
  hostname: string;
  protocol: string;
  port: string;
}
type Connector = (
  options: ConnectOptions,
  callback: (error: Error | null, socket: net.Socket | null) => void,
) => void;
interface Dispatcher {
  constructor: new (options: { connect: Connector }) => Dispatcher;
  close(): Promise<void>;
}

/**
 * Routes the hosted API hosts to `platformUrl` (`http://127.0.0.1:<port>`) for every `fetch` of this
 * process. Plain-HTTP loopback calls go through unchanged; any other host is refused, so a test can
 * never reach the real hosted platform. Returns the function that removes the route.
 */
export async function routeHostedApiTo(platformUrl: string): Promise<() => Promise<void>> {
  const target = new URL(platformUrl);
  const slots = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // fetch sets up its default pool on first use: make one call so there is a pool to take the class from
  if (!slots[GLOBAL_DISPATCHER]) await (await fetch(platformUrl, { method: 'HEAD' })).arrayBuffer();
  const previous = slots[GLOBAL_DISPATCHER];
  if (!previous) throw new Error("fetch has no global dispatcher: is this Node's own fetch?");

  const route: Connector = (options, callback) => {
    const hosted = HOSTED_API_HOSTS.includes(options.hostname);
    if (!hosted && options.protocol !== 'http:') {
      callback(new Error(`refusing to leave the machine for ${options.protocol}//${options.hostname}`), null);
      return;
    }
    const socket = hosted
      ? net.connect({ host: target.hostname, port: Number(target.port) })
      : net.connect({ host: options.hostname, port: Number(options.port) || 80 });
    socket.once('connect', () => callback(null, socket));
    socket.once('error', (error) => callback(error, null));
  };
  const routed = new previous.constructor({ connect: route });
  slots[GLOBAL_DISPATCHER] = routed;
  return async () => {
    slots[GLOBAL_DISPATCHER] = previous;
    await routed.close();
  };
}
