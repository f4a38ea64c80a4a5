/** Where a downloaded result goes: a file (--output, written atomically) or stdout, never binary to a terminal. */
import type { Download } from '../../api/clientTypes.js';
import { writeRepoFile } from '../../review/node/files.js';
import { UsageError } from './errors.js';
import type { Output } from './output.js';

function downloadBytes(download: Download): string | Uint8Array {
  if (download.kind === 'binary') return download.data;
  if (download.kind === 'text') return download.text;
  return `${JSON.stringify(download.data, null, 2)}\n`;
}

/** Writes to `output` (a path, or `-` for stdout); returns the absolute path written, if any. */
export async function saveDownload(download: Download, output: string | undefined, out: Output): Promise<string | undefined> {
  if (output && output !== '-') {
    // Confined to the working directory, like every write (review/node/files.ts).
    return writeRepoFile(process.cwd(), output, downloadBytes(download));
  }
  if (download.kind === 'binary' && out.stdoutIsTTY) {
    throw new UsageError(`the result is binary (${download.contentType}): refusing to print it to the terminal`, `Pass --output ${download.filename}, or pipe it (--output - > file).`);
  }
  out.data(downloadBytes(download));
  return undefined;
}
