/**
 * The throughput baseline: a bare `node:http` server that answers each recorded request path with the
 * platform's own response bytes (status, headers that matter, body) from memory.
 * Usage: node --import tsx bench/support/baseline-server.ts <port> <responses.json>
 */
import fs from 'node:fs';
import http from 'node:http';

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Base64 of the body bytes. */
  body: string;
}

const [port, file] = process.argv.slice(2);
const recorded = JSON.parse(fs.readFileSync(file!, 'utf8')) as Record<string, RecordedResponse>;
const answers = new Map(
  Object.entries(recorded).map(([url, response]) => [
    url,
    { ...response, body: Buffer.from(response.body, 'base64') },
  ]),
);

http
  .createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.byteLength });
    response.end(answer.body);
  })
  .listen(Number(port), '127.0.0.1');
