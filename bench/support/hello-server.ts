/**
 * The token-grant baseline: a bare `node:http` server answering every request 200 "hello world".
 * Usage: node --import tsx bench/support/hello-server.ts <port>
 */
import http from 'node:http';

const [port] = process.argv.slice(2);
const body = Buffer.from('hello world');

http
  .createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.byteLength });
    response.end(body);
  })
  .listen(Number(port), '127.0.0.1');
