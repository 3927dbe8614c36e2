import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import type { Delivery, OutgoingEmail } from './mailer.ts';

/**
 * Delivery to the mail server `SMTP_URL` names: `smtp://[user:pass@]host[:port]` (plain, port 25) or
 * `smtps://...` (TLS from the first byte, port 465), AUTH PLAIN when it has credentials. A small
 * SMTP client of our own: one message a connection, which is all a store's few emails need.
 */
export function smtpDelivery(smtpUrl: string | undefined, from: string): Delivery | undefined {
  if (!smtpUrl) return undefined;
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got ${url.protocol}`);
  }
  return (message) => sendOne(url, from, message);
}

async function sendOne(url: URL, from: string, message: OutgoingEmail): Promise<void> {
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 25));
  const socket = secure
    ? tls.connect({ host: url.hostname, port, servername: url.hostname })
    : net.connect({ host: url.hostname, port });
  socket.setTimeout(30_000, () => socket.destroy(new Error('SMTP server timed out')));
  const replies = replyReader(socket);
  const command = async (line: string | undefined, expect: number) => {
    if (line !== undefined) socket.write(`${line}\r\n`);
    const reply = await replies();
    if (Math.floor(reply.code / 100) !== Math.floor(expect / 100)) {
      throw new Error(
        `SMTP server answered ${reply.code} ${reply.text} to ${line?.split(' ')[0] ?? 'greeting'}`,
      );
    }
  };
  try {
    await command(undefined, 220);
    await command(`EHLO ${os.hostname() || 'cartwheel'}`, 250);
    if (url.username) {
      const plain = Buffer.from(`\0${decodeURIComponent(url.username)}\0${decodeURIComponent(url.password)}`);
      await command(`AUTH PLAIN ${plain.toString('base64')}`, 235);
    }
    await command(`MAIL FROM:<${addressOf(from)}>`, 250);
    await command(`RCPT TO:<${addressOf(message.to)}>`, 250);
    await command('DATA', 354);
    await command(`${render(from, message)}\r\n.`, 250);
    socket.write('QUIT\r\n');
  } finally {
    socket.end();
  }
}

/** Reads whole replies (`250-...` lines end with `250 ...`), one per call, in order. */
function replyReader(socket: net.Socket): () => Promise<{ code: number; text: string }> {
  let buffer = '';
  const lines: string[] = [];
  let waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  let failure: Error | undefined;
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let index = buffer.indexOf('\r\n');
    while (index >= 0) {
      lines.push(buffer.slice(0, index));
      buffer = buffer.slice(index + 2);
      index = buffer.indexOf('\r\n');
    }
    if (waiting && lines.length > 0) {
      const next = waiting;
      waiting = undefined;
      next.resolve(lines.shift() as string);
    }
  });
  const fail = (error: Error) => {
    failure = error;
    waiting?.reject(error);
    waiting = undefined;
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('SMTP connection closed')));
  const line = () =>
    lines.length > 0
      ? Promise.resolve(lines.shift() as string)
      : failure
        ? Promise.reject(failure)
        : new Promise<string>((resolve, reject) => {
            waiting = { resolve, reject };
          });
  return async () => {
    const text: string[] = [];
    for (;;) {
      const next = await line();
      text.push(next.slice(4));
      if (next[3] !== '-') return { code: Number(next.slice(0, 3)), text: text.join(' ') };
    }
  };
}

/** The message in RFC 5322 form: UTF-8 text, encoded headers, dot-stuffed lines. */
function render(from: string, message: OutgoingEmail): string {
  const header = (value: string) =>
    /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
  const body = message.text
    .replace(/\r?\n/g, '\r\n')
    .split('\r\n')
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n');
  return [
    `From: ${from}`,
    `To: ${addressOf(message.to)}`,
    `Subject: ${header(message.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    body,
  ].join('\r\n');
}

function addressOf(mailbox: string): string {
  const address = /<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox;
  if (/[\r\n<>]/.test(address)) throw new Error(`not an email address: ${address}`);
  return address.trim();
}
