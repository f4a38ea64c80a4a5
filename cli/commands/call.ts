/** `compliance call <operationId>`: any operation of the table with the API module's `call` input convention. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Download } from '../../api/clientTypes.js';
import { isOperationId, operationIds, operations, type OperationId } from '../../api/operations.js';
import { assertMayCall } from '../../review/events.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { CONNECTION_OPTIONS, booleanFlag, integerFlag, parseCommand, stringFlag, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { saveDownload } from '../lib/download.js';
import { EXIT, UsageError } from '../lib/errors.js';
import type { Output } from '../lib/output.js';
import { SPEND_OPTIONS } from '../lib/reviewOptions.js';
import { withSession } from '../lib/session.js';
import { plannedTokens, spendStep, spentLine, tokensSpent } from '../lib/spend.js';

const OPTIONS = {
  input: { type: 'string', valueName: 'JSON', description: 'the input object: JSON text, or @FILE to read it from a file' },
  file: { type: 'string', valueName: 'PATH', description: 'mapDocument: upload this file (docx, pdf, xlsx, pptx, txt, md, csv) as the multipart field file' },
  output: { type: 'string', short: 'o', valueName: 'PATH', description: 'write the result to PATH (downloads: the file itself); - for stdout' },
  ...SPEND_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

const width = Math.max(...operationIds.map((id) => id.length));
const OPERATION_LIST = operationIds.map((id) => {
  const op = operations[id];
  const cost = op.cost.kind === 'free' ? '' : op.cost.kind === 'fixed' ? `  [${op.cost.tokens.toLocaleString('en-US')} tokens live]` : '  [charged live]';
  return `  ${id.padEnd(width)}  ${op.method} ${op.path}${cost}`;
});

async function readInput(raw: string | undefined): Promise<Record<string, unknown>> {
  if (raw === undefined) return {};
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = await readFile(raw.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`--input ${raw}: ${(error as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input is not valid JSON: ${(error as Error).message}`, `For example --input '{"jobId":"3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--input must be a JSON object', 'For example --input \'{"query":"health data"}\'');
  return value as Record<string, unknown>;
}

export const callCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance call <operationId> [--input JSON|@FILE] [--file PATH] [--output PATH] [options]',
      description:
        'Calls one operation. In --input, path parameters (jobId, id, slug) are top-level keys; the other keys become the\n' +
        'query (GET, DELETE) or the JSON body (POST, PUT). The normalised answer is printed as JSON. Charged operations\n' +
        'show their price in live mode first; --dry-run and --max-tokens apply.',
      notes: ['Operations:', ...OPERATION_LIST],
      examples: [
        'compliance call ping',
        'compliance call suggestFrameworks --input \'{"query":"health data privacy","jurisdiction":"US"}\'',
        'compliance call mapDocument --input \'{"framework":"hipaa-security"}\' --file policy.pdf',
        'compliance call downloadDocument --input \'{"jobId":"…","format":"pdf"}\' --output report.pdf',
      ],
    }, { min: 1, max: 1, names: 'operation id' });
    if (!parsed) return 0;
    const v = parsed.values;
    const operationId = parsed.positionals[0] as string;
    if (!isOperationId(operationId)) throw new UsageError(`unknown operation ${JSON.stringify(operationId)}`, `Use one of: ${operationIds.join(', ')}.`);
    const operation = operations[operationId as OperationId];
    const input = await readInput(stringFlag(v, 'input'));
    const filePath = stringFlag(v, 'file');
    if (filePath) {
      if (!operation.multipart) throw new UsageError(`--file is for uploads (mapDocument); ${operationId} takes none`);
      let data: Uint8Array;
      try {
        data = new Uint8Array(await readFile(filePath));
      } catch (error) {
        throw new UsageError(`--file ${filePath}: ${(error as Error).message}`);
      }
      input.file = { data, filename: basename(filePath) };
    }
    const output = stringFlag(v, 'output');
    const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
    if (!booleanFlag(v, 'dry-run')) assertMayCall(currentEventPolicy(), operationId, 'Write the library from the default branch (compliance sync on pushes to it); elsewhere add --dry-run.');
    return withSession(parsed, out, async (session) => {
      const send = () => session.client.call(operationId as OperationId, input as never) as Promise<unknown>;
      let result: unknown;
      if (operation.cost.kind === 'free') result = await send();
      else {
        const step = await spendStep(session, out, [{ operationId, count: 1 }], { maxTokens, dryRun: booleanFlag(v, 'dry-run'), what: operationId }, send);
        if (step.status === 'dry-run') {
          out.printJson({ dryRun: true, operationId, plannedTokens: plannedTokens(step) ?? null, refusal: step.refusal?.message ?? null });
          return EXIT.ok;
        }
        result = step.value;
        // stdout carries the operation's own response: the cost goes beside it, on stderr.
        out.notice(spentLine(step.mode, tokensSpent(step)));
      }
      if (operation.response === 'download') {
        const download = result as Download;
        if (output) {
          const path = await saveDownload(download, output, out);
          if (path) out.notice(`Wrote ${path} (${download.contentType}).`);
        } else if (download.kind === 'json') {
          out.printJson(download.data);
        } else {
          await saveDownload(download, undefined, out);
        }
        return EXIT.ok;
      }
      if (output && output !== '-') {
        const { writeRepoFile } = await import('../../review/node/files.js');
        out.notice(`Wrote ${await writeRepoFile(process.cwd(), output, `${JSON.stringify(result, null, 2)}\n`)}.`);
      } else {
        out.printJson(result);
      }
      return EXIT.ok;
    });
  },
};
