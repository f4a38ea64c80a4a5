/** The CLI's messages as pure functions: did you mean, one fix per error, per-parameter hints, ambiguous names. */
import { describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../../api/node/index.js';
import { COMMANDS } from '../../../cli/commands/index.js';
import { cleanParseError, parseCommand, renderHelp } from '../../../cli/lib/args.js';
import { describeError, UsageError } from '../../../cli/lib/errors.js';
import { resolveFrameworkArgument } from '../../../cli/lib/frameworkMatch.js';
import { checkKeyShape } from '../../../cli/lib/session.js';
import { closest, didYouMean } from '../../../cli/lib/suggest.js';
import { planSync } from '../../../review/syncPlan.js';
import { runSync } from '../../../review/syncRun.js';

const commands = Object.keys(COMMANDS);

describe('did you mean', () => {
  it('names the command for a typo, a swapped pair or a prefix', () => {
    expect(closest('pign', commands)).toEqual(['ping']);
    expect(closest('reveiw', commands)).toEqual(['review']);
    expect(closest('frame', commands)).toEqual(['frameworks']);
    expect(didYouMean('xyzzy', commands)).toBe('');
  });

  it('names the option for a mistyped flag', () => {
    expect(cleanParseError("Unknown option '--dry-rn'. To specify a positional argument starting with a '-'…", ['dry-run', 'json', 'max-tokens'])).toBe('unknown option --dry-rn. Did you mean --dry-run?');
    expect(() => parseCommand(['--max-token', '5'], { 'max-tokens': { type: 'string', description: 'x' } }, { usage: 'compliance sync [options]', description: '', examples: [] }))
      .toThrow(/unknown option --max-token\. Did you mean --max-tokens\?/);
  });
});

describe('help', () => {
  const help = { usage: 'compliance x', description: 'd', examples: [] };
  it('lists exit code 1 only for a command with a gate', () => {
    expect(renderHelp(help, {})).not.toMatch(/^ {2}1 {2}gate failed/m);
    expect(renderHelp({ ...help, gate: true }, {})).toMatch(/^ {2}1 {2}gate failed/m);
  });
});

describe('errors', () => {
  it('a key pasted with its header gets its own message', () => {
    expect(() => checkKeyShape('Bearer csk_live_abc', 'COMPLIANCE_API_KEY')).toThrow(/COMPLIANCE_API_KEY starts with "Bearer": give the key alone/);
    expect(() => checkKeyShape('Authorization: Bearer csk_live_abc', '--api-key')).toThrow(UsageError);
    expect(() => checkKeyShape('csk_live_abc', 'COMPLIANCE_API_KEY')).not.toThrow();
  });

  it('a missing slug gets the slug hint, a missing library id the id hint', async () => {
    const client = new ComplianceClient({ apiKey: 'csk_sandbox_x', baseUrl: 'http://127.0.0.1:9/api/public/v1' });
    const hintOf = async (operationId: string) => describeError(await client.call(operationId as 'getFramework', {} as never).catch((error: unknown) => error));
    expect(await hintOf('getFramework')).toMatchObject({ exitCode: 2, message: 'getFramework: slug is required', hint: expect.stringContaining('framework slug') });
    expect(await hintOf('getLibraryDocument')).toMatchObject({ exitCode: 2, hint: expect.stringContaining('library listing') });
  });

  it('an ambiguous framework name lists the candidates instead of picking one', () => {
    const verified = [{ slug: 'hipaa-security', name: 'HIPAA Security Rule' }, { slug: 'hipaa-privacy', name: 'HIPAA Privacy Rule' }, { slug: 'gdpr', name: 'General Data Protection Regulation' }];
    expect(() => resolveFrameworkArgument('hipaa', verified)).toThrow('"hipaa" matches 2 frameworks: hipaa-security (HIPAA Security Rule), hipaa-privacy (HIPAA Privacy Rule)');
    expect(resolveFrameworkArgument('hipaa-privacy', verified)).toBe('hipaa-privacy');
    expect(resolveFrameworkArgument('GDPR', verified)).toBe('gdpr');
    expect(resolveFrameworkArgument('pci-dss', verified)).toBe('pci-dss');
  });

  it('a document ingested without a file name is not shown as "renamed from "', async () => {
    const content = `# Access control\n\n${'Every account is reviewed each quarter by its owner and revoked when unused. '.repeat(4)}\n`;
    const library = [{ id: 'doc_1', title: 'Access', filename: undefined, category: 'Policies', tags: [], version: 1, contentHash: undefined, size: content.length, createdAt: '', updatedAt: '' }];
    const plan = planSync({ files: [{ path: 'policies/access.md', content }], library: library as never, repoTag: 'repo:a/b', groups: [{ name: 'p', paths: ['policies/*.md'], tags: [] }] as never, deleteRemoved: false, knownHashes: { doc_1: (await import('../../../api/contentHash.js')).contentHash(content) } });
    const renamed = plan.items.find((item) => item.kind === 'renamed');
    expect(renamed).toBeDefined();
    const run = await runSync({} as never, plan, { dryRun: true } as never);
    const message = run.results.find((result) => result.kind === 'renamed')?.message ?? '';
    expect(message).not.toMatch(/renamed from :/);
    expect(message).toMatch(/without a file name/);
  });
});
