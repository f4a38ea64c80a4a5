/** `compliance download <jobId>`: a finished generation or mapping result as json, md, pdf or docx (free). */
import { FORMATS } from '../../api/schemas/common.js';
import { CONNECTION_OPTIONS, enumFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { saveDownload } from '../lib/download.js';
import { EXIT } from '../lib/errors.js';
import type { Output } from '../lib/output.js';
import { withSession } from '../lib/session.js';

const OPTIONS = {
  format: { type: 'string', valueName: 'FORMAT', description: `${FORMATS.join(', ')} (default json)` },
  output: { type: 'string', short: 'o', valueName: 'PATH', description: 'write to PATH (atomically); - for stdout; binary never goes to a terminal' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const downloadCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance download <jobId> [--format FORMAT] [--output PATH] [options]',
      description: 'Downloads the result of a completed job (GET /documents/{jobId}, free).',
      examples: ['compliance download 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a --format pdf --output policy.pdf', 'compliance download $JOB --format md > policy.md'],
    }, { min: 1, max: 1, names: 'job id' });
    if (!parsed) return 0;
    const jobId = parsed.positionals[0] as string;
    const format = enumFlag(parsed.values, 'format', FORMATS) ?? 'json';
    const output = stringFlag(parsed.values, 'output');
    return withSession(parsed, out, async ({ client }) => {
      const download = await client.downloadDocument({ jobId, format });
      if (out.json && (!output || output === '-')) {
        out.printJson(download.kind === 'json' ? download.data : { kind: download.kind, contentType: download.contentType, filename: download.filename, ...(download.kind === 'text' ? { text: download.text } : {}) });
        return EXIT.ok;
      }
      const path = await saveDownload(download, output, out);
      if (path) out.result(() => `Wrote ${path} (${download.contentType}).`, () => ({ path, contentType: download.contentType, filename: download.filename, bytes: download.kind === 'binary' ? download.data.byteLength : undefined }));
      return EXIT.ok;
    });
  },
};
