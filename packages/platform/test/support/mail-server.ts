import net from 'node:net';

/**
 * A mail server on a loopback port that accepts everything and keeps what it was sent, until a test
 * makes it refuse: `refuse` answers each recipient with that reply (`451 4.3.0 try later`), `down`
 * answers each connection 421 and hangs up (a server shutting down), and setting them back to
 * undefined and false makes it accept again.
 */
export async function startMailServer(): Promise<{
  port: number;
  received: string[];
  refuse: string | undefined;
  down: boolean;
  close(): Promise<void>;
}> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    if (mail.down) {
      socket.end('421 4.3.2 test service not available, closing channel\r\n');
      return;
    }
    let buffer = '';
    let data: string[] | undefined;
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index = buffer.indexOf('\r\n');
      while (index >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        index = buffer.indexOf('\r\n');
        if (data) {
          if (line === '.') {
            received.push(data.join('\n'));
            data = undefined;
            socket.write('250 queued\r\n');
          } else data.push(line);
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase();
        if (verb === 'EHLO') socket.write('250-test\r\n250 8BITMIME\r\n');
        else if (verb === 'RCPT' && mail.refuse) socket.write(`${mail.refuse}\r\n`);
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const mail = {
    port,
    received,
    refuse: undefined as string | undefined,
    down: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return mail;
}
