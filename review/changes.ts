/**
 * What a change touched, as git lists it between the base commit and the head
 * (`git diff --no-renames --name-status -z`): every path added, modified, deleted or changed in
 * type. Without rename and copy detection a move lists both its old and its new path, so a
 * document moved out of scope still counts; with `-z` no name is quoted or escaped, so any file
 * name matches the globs as written. An entry that cannot be classified makes the whole change
 * count as touching everything: fail closed, never "nothing changed".
 */

export interface ChangeList {
  /** Every path the change touched, relative to the repository root. */
  paths: string[];
  /** Entries that could not be classified (an unknown status, a name that is not UTF-8): when any, everything counts as changed. */
  unclassified: string[];
}

/** Status letters of one path each (git diff --name-status); R and C carry two paths, and never appear with --no-renames. */
const ONE_PATH = new Set(['A', 'M', 'D', 'T']);
const TWO_PATHS = new Set(['R', 'C']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** NUL-terminated fields of git's -z output. */
function fieldsOf(output: Uint8Array): Uint8Array[] {
  const fields: Uint8Array[] = [];
  let start = 0;
  for (let at = 0; at < output.length; at++) {
    if (output[at] === 0) {
      fields.push(output.subarray(start, at));
      start = at + 1;
    }
  }
  if (start < output.length) fields.push(output.subarray(start));
  return fields;
}

/** A file name as git wrote it; one that is not UTF-8 cannot be matched against the globs, so it is unclassified. */
function nameOf(bytes: Uint8Array | undefined, list: ChangeList): void {
  if (!bytes || bytes.length === 0) return;
  try {
    list.paths.push(utf8.decode(bytes));
  } catch {
    list.unclassified.push(`a file name that is not UTF-8 (${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')})`);
  }
}

/** `git diff --name-status -z` output (bytes, names raw) as a change list. */
export function parseNameStatus(output: Uint8Array): ChangeList {
  const fields = fieldsOf(output);
  const list: ChangeList = { paths: [], unclassified: [] };
  for (let index = 0; index < fields.length; ) {
    const status = new TextDecoder().decode(fields[index]).trim();
    const letter = status.charAt(0);
    const count = ONE_PATH.has(letter) ? 1 : TWO_PATHS.has(letter) ? 2 : 0;
    if (count === 0) {
      // Unmerged (U), unknown (X) or anything git adds later: the rest cannot be read with certainty.
      list.unclassified.push(`status ${JSON.stringify(status)}`);
      break;
    }
    for (const field of fields.slice(index + 1, index + 1 + count)) nameOf(field, list);
    if (index + 1 + count > fields.length) list.unclassified.push(`status ${status} without its path`);
    index += 1 + count;
  }
  return { paths: [...new Set(list.paths)], unclassified: list.unclassified };
}

/** A -z list of names (`git ls-files -z --others`): every one a change. */
export function parsePathList(output: Uint8Array): ChangeList {
  const list: ChangeList = { paths: [], unclassified: [] };
  for (const field of fieldsOf(output)) nameOf(field, list);
  return list;
}
