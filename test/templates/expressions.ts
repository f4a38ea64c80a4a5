/**
 * GitHub Actions expressions (`${{ … }}`), the subset the templates use, with GitHub's semantics:
 * literals, context property access (dots, hyphenated names, `[...]`), `!`, comparisons and
 * equality with GitHub's loose coercion (strings compared case-insensitively), `&&`/`||` returning
 * their operand, and the functions contains, startsWith, endsWith, format, join, toJSON, fromJSON and
 * the status functions. Anything else (object filters `.*`, hashFiles, unknown contexts or
 * functions) throws, so a template never relies on something the harness only pretends to do.
 */

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export interface Status {
  success(): boolean;
  failure(): boolean;
}

export interface ExpressionContext {
  contexts: Record<string, Value | ((name: string) => Value)>;
  status?: Status;
}

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'ident'; value: string }
  | { kind: 'op'; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (char === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) throw new Error(`unterminated string in expression: ${source}`);
        if (source[i] === "'") {
          if (source[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += source[i++];
      }
      tokens.push({ kind: 'string', value });
      continue;
    }
    const two = source.slice(i, i + 2);
    if (['==', '!=', '<=', '>=', '&&', '||'].includes(two)) {
      tokens.push({ kind: 'op', value: two });
      i += 2;
      continue;
    }
    if ('!<>()[].,'.includes(char)) {
      tokens.push({ kind: 'op', value: char });
      i++;
      continue;
    }
    const number = /^(?:0x[0-9a-f]+|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i.exec(source.slice(i));
    if (number && !/[A-Za-z_]/.test(source[i + number[0].length] ?? '')) {
      tokens.push({ kind: 'number', value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(source.slice(i));
    if (ident) {
      tokens.push({ kind: 'ident', value: ident[0] });
      i += ident[0].length;
      continue;
    }
    throw new Error(`unsupported character ${JSON.stringify(char)} in expression: ${source}`);
  }
  return tokens;
}

export function truthy(value: Value): boolean {
  return !(value === null || value === false || value === 0 || value === '' || (typeof value === 'number' && Number.isNaN(value)));
}

function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'object' && a !== null) return a === b;
  if (typeof b === 'object' && b !== null) return false;
  if (typeof a === typeof b) return a === b;
  return toNumber(a) === toNumber(b);
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  const x = toNumber(a);
  const y = toNumber(b);
  return Number.isNaN(x) || Number.isNaN(y) ? Number.NaN : x - y;
}

/** A value as GitHub writes it into a string (with:, env:, run:). */
export function stringify(value: Value): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  throw new Error('an object or array cannot be written into a string: use toJSON()');
}

function text(value: Value): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : stringify(value);
}

class Parser {
  #i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly context: ExpressionContext,
    private readonly source: string,
  ) {}

  parse(): Value {
    const value = this.#or();
    if (this.#i < this.tokens.length) throw new Error(`unexpected ${JSON.stringify(this.tokens[this.#i]?.value)} in expression: ${this.source}`);
    return value;
  }

  #peek(value: string): boolean {
    const token = this.tokens[this.#i];
    return token?.kind === 'op' && token.value === value;
  }

  #expect(value: string): void {
    if (!this.#peek(value)) throw new Error(`expected ${value} in expression: ${this.source}`);
    this.#i++;
  }

  #or(): Value {
    let left = this.#and();
    while (this.#peek('||')) {
      this.#i++;
      const right = this.#and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  #and(): Value {
    let left = this.#equality();
    while (this.#peek('&&')) {
      this.#i++;
      const right = this.#equality();
      left = truthy(left) ? right : left;
    }
    return left;
  }

  #equality(): Value {
    let left = this.#comparison();
    while (this.#peek('==') || this.#peek('!=')) {
      const op = (this.tokens[this.#i++] as Token).value;
      const right = this.#comparison();
      left = op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  }

  #comparison(): Value {
    let left = this.#unary();
    for (;;) {
      const op = ['<', '<=', '>', '>='].find((candidate) => this.#peek(candidate));
      if (!op) return left;
      this.#i++;
      const c = compare(left, this.#unary());
      left = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
  }

  #unary(): Value {
    if (this.#peek('!')) {
      this.#i++;
      return !truthy(this.#unary());
    }
    return this.#postfix(this.#primary());
  }

  #postfix(start: Value): Value {
    let value = start;
    for (;;) {
      if (this.#peek('.')) {
        this.#i++;
        const token = this.tokens[this.#i++];
        if (token?.kind !== 'ident') throw new Error(`unsupported property access (object filters are not supported) in expression: ${this.source}`);
        value = property(value, token.value);
      } else if (this.#peek('[')) {
        this.#i++;
        const key = this.#or();
        this.#expect(']');
        value = property(value, key);
      } else return value;
    }
  }

  #primary(): Value {
    const token = this.tokens[this.#i++];
    if (!token) throw new Error(`unexpected end of expression: ${this.source}`);
    if (token.kind === 'number' || token.kind === 'string') return token.value;
    if (token.kind === 'op') {
      if (token.value !== '(') throw new Error(`unexpected ${token.value} in expression: ${this.source}`);
      const value = this.#or();
      this.#expect(')');
      return value;
    }
    const name = token.value;
    if (name === 'true') return true;
    if (name === 'false') return false;
    if (name === 'null') return null;
    if (this.#peek('(')) {
      this.#i++;
      const args: Value[] = [];
      while (!this.#peek(')')) {
        args.push(this.#or());
        if (!this.#peek(')')) this.#expect(',');
      }
      this.#i++;
      return this.#call(name, args);
    }
    const context = this.context.contexts[name];
    if (context === undefined) throw new Error(`unknown context "${name}" in expression: ${this.source} (the harness supports ${Object.keys(this.context.contexts).join(', ')})`);
    if (typeof context === 'function') {
      // Lazily resolved contexts (steps, needs) check the name right away, so typos fail loudly.
      this.#expect('.');
      const key = this.tokens[this.#i++];
      if (key?.kind !== 'ident') throw new Error(`expected a name after ${name}. in expression: ${this.source}`);
      return context(key.value);
    }
    return context;
  }

  #call(name: string, args: Value[]): Value {
    const status = this.context.status;
    switch (name.toLowerCase()) {
      case 'success':
      case 'failure':
      case 'always':
      case 'cancelled':
        if (!status) throw new Error(`${name}() is not available here`);
        return name.toLowerCase() === 'always' ? true : name.toLowerCase() === 'cancelled' ? false : name.toLowerCase() === 'success' ? status.success() : status.failure();
      case 'contains': {
        const [search, item] = args as [Value, Value];
        if (Array.isArray(search)) return search.some((entry) => equal(entry, item));
        return text(search).toLowerCase().includes(text(item).toLowerCase());
      }
      case 'startswith':
        return text(args[0] ?? null).toLowerCase().startsWith(text(args[1] ?? null).toLowerCase());
      case 'endswith':
        return text(args[0] ?? null).toLowerCase().endsWith(text(args[1] ?? null).toLowerCase());
      case 'format': {
        const [template, ...rest] = args;
        return text(template ?? null)
          .replace(/\{\{|\}\}|\{(\d+)\}/g, (match, index?: string) => (match === '{{' ? '{' : match === '}}' ? '}' : text(rest[Number(index)] ?? null)));
      }
      case 'join': {
        const [items, separator] = args;
        return Array.isArray(items) ? items.map(text).join(separator === undefined ? ',' : text(separator)) : text(items ?? null);
      }
      case 'tojson':
        return JSON.stringify(args[0] ?? null, null, 2);
      case 'fromjson':
        return JSON.parse(text(args[0] ?? null)) as Value;
      default:
        throw new Error(`unsupported function ${name}() in expression: ${this.source}`);
    }
  }
}

function property(value: Value, key: Value): Value {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return typeof key === 'number' ? (value[key] ?? null) : null;
  const name = String(key);
  // Property names are case-insensitive in GitHub expressions.
  const match = Object.keys(value).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return match === undefined ? null : (value[match] ?? null);
}

export function evaluate(expression: string, context: ExpressionContext): Value {
  return new Parser(tokenize(expression), context, expression).parse();
}

const EMBEDDED = /\$\{\{([\s\S]*?)\}\}/g;

/** A `with:`/`env:`/`run:` value: text with embedded `${{ }}` expressions. */
export function interpolate(template: string, context: ExpressionContext): string {
  return template.replace(EMBEDDED, (_, expression: string) => stringify(evaluate(expression, context)));
}

/** An `if:` condition: an expression, bare or wrapped whole in `${{ }}`. */
export function condition(source: string | boolean | undefined, context: ExpressionContext): boolean {
  if (source === undefined) return context.status ? context.status.success() : true;
  if (typeof source === 'boolean') return source;
  const trimmed = source.trim();
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(trimmed);
  if (!whole && trimmed.includes('${{')) throw new Error(`an if: condition mixing text and \${{ }} is always true on GitHub: ${source}`);
  const expression = whole ? (whole[1] as string) : trimmed;
  // GitHub adds success() to a condition that calls no status function.
  const usesStatus = /\b(success|failure|always|cancelled)\s*\(/i.test(expression);
  const value = truthy(evaluate(expression, context));
  return usesStatus ? value : value && (context.status ? context.status.success() : true);
}

/** Every `${{ }}` expression in a text. */
export function expressionsIn(text: string): string[] {
  return [...text.matchAll(EMBEDDED)].map((match) => (match[1] as string).trim());
}
