// Splits filter text into tokens with 0-based positions, on demand from the parser.
// The parser names what it expects next (a mode) because the grammar is not context-free at the
// token level: a bare word may hold '=' or '<' (`a = x<y`), yet `a>=2` must split into three tokens,
// and a bare value may hold spaces (`Smith Sons Ltd`) where a keyword would end it.

import { AppError } from '../errors.js';
import { FILTER_OPS } from './ast.js';

/**
 * What the parser expects next; it decides how a run of non-space characters is cut. `run` is the
 * operand of a comparison: a quoted value, or a bare value of several words (see scanRun).
 */
export type LexMode = 'field' | 'op' | 'value' | 'run';

/** A lexical token; `raw` is the source slice, used in error messages. */
export interface Token {
  kind: 'lparen' | 'rparen' | 'quoted' | 'word' | 'eof';
  /** The exact source text of the token (with quotes, if quoted). */
  raw: string;
  /** For quoted tokens the unescaped content; otherwise equal to `raw`. */
  text: string;
  /** Set for quoted tokens only. */
  quote?: 'single' | 'double';
  /** 0-based offset of the first character. */
  pos: number;
  /** 0-based offset just past the last character. */
  end: number;
}

const IDENT_CHAR = /[A-Za-z0-9_]/;
const OP_SYMBOL_CHAR = /[=!<>]/;
const OP_WORD_CHAR = /[A-Za-z0-9_-]/;
const SPACE = /\s/;
const KEYWORD = /^(and|or)$/i;
/** Words that end a bare value: the keywords, and the C-style spellings the parser refuses with a hint. */
const RUN_END = /^(and|or|&&|\|\|)$/i;
/** `\and` or `\or` where a builder escapes the word (see scanRun): the backslash is dropped. */
const ESCAPED_KEYWORD = /^\\(and|or)(?![A-Za-z0-9_])/i;
const OPS: ReadonlySet<string> = new Set(FILTER_OPS);

/** True if `ch` may appear in a bare word (the grammar's definition). */
function isBareChar(ch: string): boolean {
  return !SPACE.test(ch) && ch !== '(' && ch !== ')' && ch !== "'" && ch !== '"';
}

/** True if `ch` may appear in a field name. */
export function isIdentChar(ch: string): boolean {
  return IDENT_CHAR.test(ch);
}

/** Shortens a token for display so one huge bare word cannot flood the message. */
function shown(raw: string): string {
  return raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
}

/**
 * Builds the QUERY_SYNTAX error; positions in messages are 1-based because people count that way.
 * `near` is the offending source text, if there is one worth quoting.
 */
export function syntaxError(pos: number, detail: string, near?: string): AppError {
  const where = `Syntax error in query at position ${pos + 1}`;
  const message = near === undefined ? `${where}: ${detail}.` : `${where} near '${shown(near)}': ${detail}.`;
  return new AppError('QUERY_SYNTAX', message);
}

/** Same as syntaxError, pointing at a token (the end of the text reads as such). */
export function tokenError(token: Token, detail: string): AppError {
  if (token.kind === 'eof') return syntaxError(token.pos, `unexpected end of query: ${detail}`);
  return syntaxError(token.pos, detail, token.raw);
}

/** A cursor over the query text; every step is O(token length) and nothing recurses. */
export class Lexer {
  private offset = 0;
  private cached: { mode: LexMode; offset: number; token: Token } | undefined;

  constructor(private readonly source: string) {}

  /** The next token in `mode`, without consuming it. */
  peek(mode: LexMode): Token {
    const hit = this.cached;
    if (hit !== undefined && hit.mode === mode && hit.offset === this.offset) return hit.token;
    const token = this.scan(mode);
    this.cached = { mode, offset: this.offset, token };
    return token;
  }

  /** The next token in `mode`, consumed. */
  next(mode: LexMode): Token {
    const token = this.peek(mode);
    this.offset = token.end;
    return token;
  }

  private scan(mode: LexMode): Token {
    const src = this.source;
    let i = this.offset;
    while (i < src.length && SPACE.test(src[i]!)) i++;
    if (i >= src.length) return { kind: 'eof', raw: '', text: '', pos: i, end: i };
    const ch = src[i]!;
    if (ch === '(' || ch === ')') {
      return { kind: ch === '(' ? 'lparen' : 'rparen', raw: ch, text: ch, pos: i, end: i + 1 };
    }
    if (ch === "'" || ch === '"') return this.scanQuoted(i, ch);
    if (mode === 'run') return this.scanRun(i);
    const end = this.wordEnd(i, mode);
    const raw = src.slice(i, end);
    return { kind: 'word', raw, text: raw, pos: i, end };
  }

  /** The end of the word at `i` (a non-space character) as `mode` cuts it. */
  private wordEnd(i: number, mode: LexMode): number {
    const src = this.source;
    const ch = src[i]!;
    // Cut words by mode so that `a>=2` yields a, >=, 2 while a value keeps any non-space run whole.
    let accept: (c: string) => boolean = isBareChar;
    if (mode === 'field' && IDENT_CHAR.test(ch)) accept = (c) => IDENT_CHAR.test(c);
    else if (mode === 'op' && OP_SYMBOL_CHAR.test(ch)) accept = (c) => OP_SYMBOL_CHAR.test(c);
    else if (mode === 'op' && OP_WORD_CHAR.test(ch)) accept = (c) => OP_WORD_CHAR.test(c);
    let end = i + 1;
    while (end < src.length && accept(src[end]!)) end++;
    return end;
  }

  /** Whether a condition (`field op`) starts at `i`, as the field and op modes would read it. */
  private startsCondition(i: number): boolean {
    const src = this.source;
    if (!IDENT_CHAR.test(src[i]!)) return false;
    let j = this.wordEnd(i, 'field');
    if (KEYWORD.test(src.slice(i, j))) return false;
    while (j < src.length && SPACE.test(src[j]!)) j++;
    if (j >= src.length || src[j] === '(' || src[j] === ')' || src[j] === "'" || src[j] === '"') return false;
    return OPS.has(src.slice(j, this.wordEnd(j, 'op')).toLowerCase());
  }

  /**
   * A bare value as query builders write it (docs/query.md): words separated by spaces, up to an
   * unescaped parenthesis, the end, or a word that ends a value (AND, OR, &&, ||) or begins another
   * condition (`b =`: a missing AND, which the parser refuses as it always did). The first word is
   * always part of it. Inside, `\(`, `\)` and `\\` are those characters, and `\and` or `\or` not
   * preceded or followed by a letter, digit or `_` is that word; any other backslash is itself.
   * Quotes after the first character are text.
   * A first word AND or OR comes back alone, for the parser to refuse.
   */
  private scanRun(start: number): Token {
    const src = this.source;
    let text = '';
    let end = start;
    let i = start;
    for (;;) {
      let word = '';
      let j = i;
      while (j < src.length) {
        const c = src[j]!;
        if (SPACE.test(c) || c === '(' || c === ')') break;
        const next = src[j + 1];
        // Builders escape `and`/`or` wherever a regex word boundary stands (`Smith-\and-Sons`).
        const keyword = c === '\\' && (j === i || !IDENT_CHAR.test(src[j - 1]!)) ? ESCAPED_KEYWORD.exec(src.slice(j, j + 5))?.[1] : undefined;
        if (c === '\\' && (next === '(' || next === ')' || next === '\\')) {
          word += next;
          j += 2;
        } else if (keyword !== undefined) {
          word += keyword;
          j += 1 + keyword.length;
        } else {
          word += c;
          j++;
        }
      }
      const raw = src.slice(i, j);
      if (i === start) {
        if (KEYWORD.test(raw)) return { kind: 'word', raw, text: raw, pos: start, end: j };
      } else if (RUN_END.test(raw) || this.startsCondition(i)) {
        break;
      }
      text += src.slice(end, i) + word;
      end = j;
      while (j < src.length && SPACE.test(src[j]!)) j++;
      // A word that stopped at a parenthesis or the end ends the value; so does a parenthesis after spaces.
      if (j === end || j >= src.length || src[j] === '(' || src[j] === ')') break;
      i = j;
    }
    return { kind: 'word', raw: src.slice(start, end), text, pos: start, end };
  }

  private scanQuoted(start: number, q: "'" | '"'): Token {
    const src = this.source;
    let text = '';
    let i = start + 1;
    for (;;) {
      const close = src.indexOf(q, i);
      if (close < 0) {
        const name = q === "'" ? 'single' : 'double';
        throw syntaxError(
          start,
          `unterminated ${name}-quoted value; end it with ${q} (write ${q}${q} for a ${q} inside the value)`,
        );
      }
      text += src.slice(i, close);
      // A doubled quote is an escaped quote character, not the end of the value.
      if (src[close + 1] === q) {
        text += q;
        i = close + 2;
        continue;
      }
      const end = close + 1;
      return { kind: 'quoted', raw: src.slice(start, end), text, quote: q === "'" ? 'single' : 'double', pos: start, end };
    }
  }
}
