/** The expression evaluator the workflow harness uses: GitHub's semantics where the templates rely on them. */
import { describe, expect, it } from 'vitest';
import { condition, evaluate, interpolate, type ExpressionContext } from '../expressions.js';

const context = (inputs: Record<string, unknown> = {}, failed = false): ExpressionContext => ({
  contexts: {
    inputs: inputs as never,
    vars: { PACK: 'pack50' },
    github: { event_name: 'schedule' },
    steps: (id: string) => {
      if (id !== 'review') throw new Error(`no step ${id}`);
      return { outputs: { passed: 'false', 'generated-paths': '[]' } };
    },
  },
  status: { success: () => !failed, failure: () => failed },
});

describe('workflow expressions', () => {
  it('&& and || return operands, null inputs on non-dispatch events fall through', () => {
    expect(evaluate("(inputs.pack != 'configured' && inputs.pack) || vars.PACK || 'pack25'", context())).toBe('pack50');
    expect(evaluate("(inputs.pack != 'configured' && inputs.pack) || vars.PACK || 'pack25'", context({ pack: 'configured' }))).toBe('pack50');
    expect(evaluate("(inputs.pack != 'configured' && inputs.pack) || vars.PACK || 'pack25'", context({ pack: 'pack100' }))).toBe('pack100');
    expect(interpolate("${{ github.event_name != 'workflow_dispatch' || inputs.regenerate }}", context())).toBe('true');
    expect(interpolate("${{ github.event_name == 'workflow_dispatch' && inputs.dry-run }}", context())).toBe('false');
  });

  it('compares loosely and case-insensitively, as GitHub does', () => {
    expect(evaluate("'ABC' == 'abc'", context())).toBe(true);
    expect(evaluate("'1' == 1", context())).toBe(true);
    expect(evaluate('null == false', context())).toBe(true);
    expect(evaluate("steps.review.outputs.generated-paths != '[]'", context())).toBe(false);
    expect(evaluate("fromJSON('{\"a\": [1, 2]}').a[1]", context())).toBe(2);
    expect(evaluate("format('{0}-{1}', 'a', 2)", context())).toBe('a-2');
  });

  it('adds success() to conditions without a status function; always() and !cancelled() run after a failure', () => {
    expect(condition("steps.review.outputs.passed == 'false'", context({}, true))).toBe(false);
    expect(condition("${{ !cancelled() && steps.review.outputs.passed == 'false' }}", context({}, true))).toBe(true);
    expect(condition('always()', context({}, true))).toBe(true);
    expect(condition(undefined, context({}, true))).toBe(false);
  });

  it('fails loudly on what it does not support or on typos', () => {
    expect(() => evaluate('steps.reveiw.outputs.passed', context())).toThrow('no step reveiw');
    expect(() => evaluate('matrix.os', context())).toThrow('unknown context "matrix"');
    expect(() => evaluate("hashFiles('**/*.md')", context())).toThrow('unsupported function hashFiles()');
    expect(() => evaluate('github.event.*.name', context())).toThrow('unsupported character "*"');
    expect(() => condition("x ${{ github.event_name == 'push' }}", context())).toThrow('always true');
  });
});
