/**
 * Every `--help` of the built CLI fits an 80-column terminal (COLUMNS) without breaking a word:
 * the same words, in the same order, as the help at 1000 columns (issue 24: 223 lines were wider
 * than 80 and broke mid-word).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands/index.js';
import { buildCli, cli } from './helpers.js';

beforeAll(() => buildCli(), 120_000);

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('help fits the terminal', () => {
  it.each([[], ...Object.keys(COMMANDS).map((name) => [name])])('compliance %s --help at 80 and 60 columns', async (...command: string[]) => {
    const args = [...command, '--help'];
    const wide = await cli(args, { env: { COLUMNS: '1000' } });
    expect(wide.code).toBe(0);
    for (const columns of [80, 60]) {
      const narrow = await cli(args, { env: { COLUMNS: String(columns) } });
      const over = narrow.stdout.split('\n').filter((line) => line.length > columns);
      expect(over, `lines over ${columns}`).toEqual([]);
      expect(words(narrow.stdout)).toEqual(words(wide.stdout));
    }
  }, 60_000);
});
