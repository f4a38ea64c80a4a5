/**
 * Every `--help` of the built CLI fits the terminal (COLUMNS) without breaking a word: the same
 * words, in the same order, as the help at 1000 columns (issue 24: 223 lines were wider than 80 and
 * broke mid-word); and no example wraps (issue 36): at 80 and 100 columns each example still pastes
 * into a shell as the same command, continued after ` \` where the line is full.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands/index.js';
import { buildCli, cli } from './helpers.js';

beforeAll(() => buildCli(), 120_000);

/** The words, without the continuations a narrow help adds. */
const words = (text: string) => text.split(/\s+/).filter((word) => word && word !== '\\');

/** The examples of a help, each as one command line: continued lines joined, comments apart. */
function examples(help: string): string[] {
  const section = help.split('\n\nExamples:\n')[1]?.split('\n\n')[0] ?? '';
  const joined = section.replace(/ \\\n\s*/g, ' ').split('\n');
  return joined.filter((line) => !/^\s*#/.test(line)).map((line) => line.replace(/\s+#.*$/, '').trim());
}

describe('help fits the terminal', () => {
  it.each([[], ...Object.keys(COMMANDS).map((name) => [name])])('compliance %s --help at 100, 80 and 60 columns', async (...command: string[]) => {
    const args = [...command, '--help'];
    const wide = await cli(args, { env: { COLUMNS: '1000' } });
    expect(wide.code).toBe(0);
    for (const columns of [100, 80, 60]) {
      const narrow = await cli(args, { env: { COLUMNS: String(columns) } });
      const over = narrow.stdout.split('\n').filter((line) => line.length > columns);
      expect(over, `lines over ${columns}`).toEqual([]);
      expect(words(narrow.stdout)).toEqual(words(wide.stdout));
      expect(examples(narrow.stdout), `examples at ${columns}`).toEqual(examples(wide.stdout));
    }
  }, 60_000);

  it('the top-level help groups the commands and gives three examples', async () => {
    const help = (await cli(['--help'], { env: { COLUMNS: '100' } })).stdout;
    for (const heading of ['Review loop:', 'Frameworks, documents and the library:', 'Account and billing:', 'Tools:']) expect(help).toContain(`\n${heading}\n`);
    for (const name of [...Object.keys(COMMANDS), 'help']) expect(help).toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(examples(help)).toHaveLength(3);
  });
});
