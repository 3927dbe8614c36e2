import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface CannedResponse {
  status?: number;
  statusText?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface LoopbackServer {
  url: string;
  requests: RecordedRequest[];
  /** Decides each answer; by default `{}` with 200. */
  respond: (request: RecordedRequest) => CannedResponse | Promise<CannedResponse>;
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port that records what the SDK sends and answers as told. */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const state: LoopbackServer = {
    url: '',
    requests: [],
    respond: () => ({ body: {} }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    state.requests.push(recorded);
    const answer = await state.respond(recorded);
    res.statusCode = answer.status ?? 200;
    if (answer.statusText) res.statusMessage = answer.statusText;
    res.setHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
