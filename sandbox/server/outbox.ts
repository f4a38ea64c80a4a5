/**
 * The emails the service would send (low balance, auto-top-up checkout links, review reminders),
 * kept in an outbox readable at GET /_sandbox/outbox. The sandbox has no separate billing contact,
 * so billing mail goes to the technical contact, as the spec says it does in that case.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { Statements } from '../sqlite.js';

type EmailKind = 'low_balance' | 'auto_topup' | 'review_reminder' | 'payment_received';

interface OutboxMessage {
  id: string;
  at: string;
  keyId: string;
  to: string;
  kind: EmailKind;
  subject: string;
  body: string;
}

function technicalContact(keyId: string): string {
  return `technical-contact+${keyId}@sandbox.invalid`;
}

export class Outbox {
  private readonly sql: Statements;

  constructor(db: DatabaseSync) {
    this.sql = new Statements(db);
  }

  send(message: { keyId: string; kind: EmailKind; subject: string; body: string; at: number }): void {
    this.sql.prepare('INSERT INTO sbx_outbox (id, at, key_id, recipient, kind, subject, body) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(`msg_${randomUUID()}`, message.at, message.keyId, technicalContact(message.keyId), message.kind, message.subject, message.body);
  }

  list(filter: { keyId?: string; kind?: string }): OutboxMessage[] {
    const rows = this.sql.prepare(
        `SELECT * FROM sbx_outbox WHERE (?1 IS NULL OR key_id = ?1) AND (?2 IS NULL OR kind = ?2) ORDER BY seq`,
      )
      .all(filter.keyId ?? null, filter.kind ?? null) as Array<Record<string, string | number>>;
    return rows.map((row) => ({
      id: String(row.id),
      at: new Date(Number(row.at)).toISOString(),
      keyId: String(row.key_id),
      to: String(row.recipient),
      kind: row.kind as EmailKind,
      subject: String(row.subject),
      body: String(row.body),
    }));
  }
}
