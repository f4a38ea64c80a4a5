/** Listing cursors: an opaque token for "after document seq N", refused when this library did not issue it. */
import { LibraryError } from './errors.js';

export function encodeCursor(seq: number): string {
  return Buffer.from(`after:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const match = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) {
    throw new LibraryError('invalid_cursor', 'The cursor is not one this library issued.', 'Pass the nextCursor of the previous page unchanged, or omit it for the first page.');
  }
  return Number(match[1]);
}
