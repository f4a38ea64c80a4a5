/** Databases written by earlier versions open, refresh and delete without stale index entries. */
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { Library } from '../../sandbox/library/index.js';
import { createPassageTable, passageRowid, passageTable, rankingTable } from '../../sandbox/library/schema.js';
import { ingestReady, LATER, newLibrary, NOW, policyText } from './helpers.js';

it('migrates a library table without the passages column', () => {
  const db = new DatabaseSync(':memory:');
  db.exec(`create table library_documents (
    seq integer primary key autoincrement, key_id text not null, id text not null unique, title text not null,
    filename text, given_category text, given_tags text not null default '[]', category text, tags text not null default '[]',
    classification text, summary text, profile text, status text not null, version integer not null, content text not null,
    content_hash text not null, size integer not null, bytes integer not null, pending_kind text, pending_content text,
    pending_hash text, created_at text not null, updated_at text not null)`);
  const old = policyText('legacy escrow', 400);
  db.prepare(`insert into library_documents (key_id, id, title, category, status, version, content, content_hash, size, bytes, created_at, updated_at)
    values ('k', 'doc_00000000000000aa', 'Legacy', 'General', 'ready', 1, ?, 'sha256:x', ?, ?, ?, ?)`).run(old, old.length, old.length, NOW, NOW);
  const table = passageTable('k');
  createPassageTable(db, table);
  db.prepare(`insert into ${table} (rowid, title, heading, body) values (?, 'Legacy', '', ?)`).run(passageRowid(1), old);

  const library = new Library(db);
  expect(library.search('k', { query: 'escrow' }).total).toBe(1);
  const work = library.beginRefresh('k', 'doc_00000000000000aa', policyText('renewed custody'), NOW);
  library.completeWork('k', work.documentId, { mode: 'live', now: LATER });
  expect(library.search('k', { query: 'escrow' }).total).toBe(0);
  expect(library.search('k', { query: 'custody' }).results.map((r) => r.documentId)).toEqual(['doc_00000000000000aa']);
  expect(library.delete('k', 'doc_00000000000000aa')).toBe(true);
  expect(db.prepare(`select count(*) as n from ${table}`).get()).toEqual({ n: 0 });
  expect(db.prepare(`select count(*) as n from ${rankingTable('k')}`).get()).toEqual({ n: 0 });
});

it('builds the ranking table of a library indexed before it existed, with the same results', () => {
  const { db, library } = newLibrary();
  ingestReady(library, 'k', { title: 'Key custody', content: policyText('key custody escrow', 3000) });
  ingestReady(library, 'k', { title: 'Escrow note', content: `${policyText('vendor review', 2000)}\n\nEscrow agents hold the source code.` });
  ingestReady(library, 'other', { title: 'Unrelated', content: policyText('badge escort', 800) });
  const before = library.search('k', { query: 'escrow' });
  expect(before.results.map((r) => r.title)).toEqual(['Key custody', 'Escrow note']);
  db.exec(`drop table ${rankingTable('k')}; drop table ${rankingTable('other')}`);

  const reopened = new Library(db);
  expect(db.prepare(`select count(*) as n from ${rankingTable('k')}`).get()).toEqual({ n: 2 });
  expect(db.prepare(`select count(*) as n from ${rankingTable('other')}`).get()).toEqual({ n: 1 });
  expect(reopened.search('k', { query: 'escrow' })).toEqual(before);
});
