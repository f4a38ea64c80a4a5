/**
 * The CLI on a repository of hostile names and texts (issue 25), the twin of the actions' test: the
 * CLI may run inside a workflow, whose runner executes a stdout line that starts with `::`, and a
 * terminal obeys escape sequences and a bare CR. Whatever the repository or the service holds, no
 * command's stdout or stderr may hold a workflow command, an ESC or a bare CR (the CLI means none).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { makeWorkspace } from '../actions/harness.js';
import { HOSTILE_CONFIG, liveMentions, MARK, runnerCommands, writeHostileFiles } from '../actions/hostileInputs.js';
import { buildCli, cli, liveSandbox, removeRepo, type Run } from './helpers.js';

/**
 * What would speak to the runner or the terminal in one stream. Human text must also show no hostile
 * `::` unbroken; a JSON document keeps its strings exact (`::` inside a string starts no line).
 */
function hazards(text: string, json: boolean): string[] {
  return [
    ...runnerCommands(text),
    ...(text.match(new RegExp(`(${json ? '' : '::|'}##\\[\\w*\\])${MARK}`, 'g')) ?? []),
    ...(text.includes('\u001b') ? ['an ESC (a terminal control sequence)'] : []),
    ...(/\r(?!\n)/.test(text) ? ['a bare CR'] : []),
    ...(/[\u2028\u2029]/.test(text) ? ['a line or paragraph separator'] : []),
  ];
}

let box: RunningSandbox;
let workspace: string;
beforeAll(async () => {
  buildCli();
  box = await liveSandbox(50_000_000);
  workspace = makeWorkspace(HOSTILE_CONFIG);
  writeHostileFiles(workspace);
});
afterAll(async () => {
  removeRepo(workspace);
  await box?.close();
});

describe('the CLI on a hostile repository', () => {
  it('prints no workflow command, escape sequence or bare CR from repository or service text', { timeout: 180_000 }, async () => {
    const runs: Record<string, Run> = {};
    const run = async (args: string[]) => (runs[args.join(' ')] = await cli(args, { cwd: workspace, box }));

    expect((await run(['config', 'check'])).code).toBe(0);
    const sync = await run(['sync']);
    expect(sync.code, sync.stderr).toBe(0);
    // The file names reached the output, each on its table row (line breaks as spaces), escaped.
    expect(sync.stdout).toContain(`policies/x :\u200D:error:\u200D:${MARK}-newline.md`);
    expect(sync.stdout).toContain(`policies/cr :\u200D:stop-commands:\u200D:${MARK}-cr.md`);
    expect(sync.stdout).toContain(`policies/esc\\u001b[2K :\u200D:notice`);
    expect((await run(['review', '--report-dir', 'compliance-report', '--formats', 'md'])).code).not.toBe(2);
    // report.md is the body GitLab's merge-request note posts (templates/gitlab): it pings nobody.
    const note = readFileSync(join(workspace, 'compliance-report', 'report.md'), 'utf8');
    expect(note).toContain('Notify');
    expect(liveMentions(note)).toEqual([]);
    await run(['map']);
    await run(['gaps']);
    await run(['library', 'list']);
    await run(['library', 'search', `access\n::error::${MARK}-query`]);
    await run(['generate', '--all', '--dry-run']);
    await run(['suggest', `hipaa\n::error::${MARK}-suggest \u001b[31mred`]);
    const slug = await run(['frameworks', 'get', `x\r::error::${MARK}-slug`]);
    expect(slug.code).not.toBe(0);
    const call = await run(['call', 'getFramework', '--input', JSON.stringify({ slug: `x\n::error::${MARK}-call` })]);
    expect(call.code).not.toBe(0);
    const json = await run(['library', 'list', '--json']);
    expect(json.json, json.stderr).toBeDefined();

    for (const [args, { stdout, stderr }] of Object.entries(runs)) {
      expect(hazards(stdout, args.endsWith('--json')), `compliance ${args} (stdout):\n${stdout}`).toEqual([]);
      expect(hazards(stderr, false), `compliance ${args} (stderr):\n${stderr}`).toEqual([]);
    }
    // JSON keeps the names as they are (a JSON reader gets the real file name back).
    expect(JSON.stringify(json.json)).toContain(`x\\n::error::${MARK}-newline`);
  });
});
