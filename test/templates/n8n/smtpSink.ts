/**
 * A local SMTP sink on loopback: enough of RFC 5321 for n8n's Send Email node (nodemailer) without
 * TLS or auth (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT), and a small MIME reader that gives
 * each received message's subject, text and attachments (base64 / quoted-printable decoded).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface MailPart {
  headers: Record<string, string>;
  contentType: string;
  filename: string | undefined;
  body: Buffer;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  attachments: MailPart[];
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Unfold continuation lines, then split name: value.
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=). */
export function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_, _charset: string, encoding: string, text: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    return Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  });
}

function decodeBody(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'utf8');
  }
}

function param(header: string | undefined, name: string): string | undefined {
  const match = new RegExp(`${name}\\*?=(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(header ?? '');
  const value = match?.[1] ?? match?.[2];
  if (value === undefined) return undefined;
  // RFC 2231 (name*=utf-8''…)
  const extended = /^[^']*'[^']*'(.*)$/.exec(value);
  return extended ? decodeURIComponent(extended[1]!) : decodeWords(value);
}

/** Leaf parts of a MIME entity, in order. */
function parts(entity: string): MailPart[] {
  const split = /\r?\n\r?\n/.exec(entity);
  const headerBlock = split ? entity.slice(0, split.index) : entity;
  const body = split ? entity.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(headerBlock);
  const contentType = (headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  if (contentType.startsWith('multipart/')) {
    const boundary = param(headers['content-type'], 'boundary');
    if (!boundary) return [];
    const sections = body.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*\\r?\\n?`));
    return sections.slice(1).filter((section) => section.trim() !== '').flatMap((section) => parts(section));
  }
  const filename = param(headers['content-disposition'], 'filename') ?? param(headers['content-type'], 'name');
  return [{ headers, contentType, filename, body: decodeBody(body, headers['content-transfer-encoding']) }];
}

export function parseMail(raw: string, from = '', to: string[] = []): ReceivedMail {
  const split = /\r?\n\r?\n/.exec(raw);
  const headers = parseHeaders(split ? raw.slice(0, split.index) : raw);
  const leaves = parts(raw);
  const textPart = leaves.find((part) => part.contentType === 'text/plain' && !part.filename);
  return {
    from,
    to,
    raw,
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: textPart ? textPart.body.toString('utf8').replace(/\r\n/g, '\n') : '',
    attachments: leaves.filter((part) => part.filename !== undefined || /attachment/i.test(part.headers['content-disposition'] ?? '')),
  };
}

export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  port = 0;
  #server: Server = createServer((socket) => this.#session(socket));
  #sockets = new Set<Socket>();

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Resolves once `count` messages (in total) match, or rejects after `timeoutMs`. */
  async waitFor(predicate: (mail: ReceivedMail) => boolean, count = 1, timeoutMs = 60_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.filter(predicate);
      if (found.length >= count) return found;
      if (Date.now() > deadline) {
        throw new Error(`SMTP sink: ${found.length} of ${count} expected messages after ${timeoutMs} ms; received: ${JSON.stringify(this.messages.map((mail) => mail.subject))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  #session(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 127.0.0.1 smtp-sink ready');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          const atStart = buffer.startsWith('.\r\n');
          if (end < 0 && !atStart) return;
          const data = atStart ? '' : buffer.slice(0, end);
          buffer = atStart ? buffer.slice(3) : buffer.slice(end + 5);
          inData = false;
          // Undo dot-stuffing; the message is UTF-8 on the wire (8BITMIME).
          const raw = Buffer.from(data.replace(/^\.\./gm, '.'), 'latin1').toString('utf8');
          this.messages.push(parseMail(raw, from, to));
          from = '';
          to = [];
          reply('250 2.0.0 queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-127.0.0.1 greets you');
          reply('250-8BITMIME');
          reply('250-SMTPUTF8');
          reply('250 SIZE 52428800');
        } else if (verb === 'HELO') reply('250 127.0.0.1');
        else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          from = '';
          to = [];
          reply('250 ok');
        } else if (verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('502 5.5.2 command not implemented');
      }
    });
  }
}
