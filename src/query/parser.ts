// Parses the filter language of POST /api/query into a FilterNode tree (see ast.ts), enforcing size bounds.
// Iterative, with an explicit stack of open parentheses, so hostile nesting cannot overflow the JS stack.

import { AppError } from '../errors.js';
import { FILTER_OPS, isNullOp, joinNodes } from './ast.js';
import type { Condition, FilterNode, FilterOp } from './ast.js';
import { Lexer, isIdentChar, syntaxError, tokenError } from './lexer.js';
import type { Token } from './lexer.js';

/** Bounds past which a filter is rejected with QUERY_TOO_COMPLEX. */
export const FILTER_LIMITS = { maxLength: 10_000, maxDepth: 64, maxConditions: 200 } as const;

const OP_LIST = FILTER_OPS.join(', ');
const KEYWORD = /^(and|or)$/i;
const SYMBOL_START = /^[=!<>]/;

/** One open parenthesis (or the whole text): finished OR-branches and the AND-run being built. */
interface Group {
  open: Token | undefined;
  ors: FilterNode[];
  ands: FilterNode[];
}

function tooComplex(detail: string): AppError {
  return new AppError('QUERY_TOO_COMPLEX', `Query too complex: ${detail}.`);
}

function closeGroup(group: Group): FilterNode {
  return joinNodes('or', [...group.ors, joinNodes('and', group.ands)]);
}

/** What a term position demands, phrased for whatever came just before it. */
function expectedTerm(token: Token, previous: Token | undefined): AppError {
  const after = previous === undefined ? '' : ` after '${previous.raw}'`;
  if (token.kind === 'rparen' && previous?.kind === 'lparen') {
    return tokenError(token, "empty parentheses: put a condition such as name = 'value' between '(' and ')'");
  }
  if (token.kind === 'word' && KEYWORD.test(token.text)) {
    return tokenError(token, `expected a condition${after}, but '${token.raw}' is a keyword`);
  }
  const hint = token.kind === 'word' ? '; field names contain only letters, digits and underscores' : '';
  return tokenError(token, `expected a condition (field operator value) or '('${after}${hint}`);
}

function readOperator(lexer: Lexer, field: Token): { op: FilterOp; pos: number } {
  const token = lexer.next('op');
  if (token.kind !== 'word') {
    throw tokenError(token, `expected an operator after field '${field.raw}'; use one of ${OP_LIST}`);
  }
  const op = token.text.toLowerCase();
  if ((FILTER_OPS as readonly string[]).includes(op)) return { op: op as FilterOp, pos: token.pos };
  // Only a non-identifier character can end a field name and still stand glued to it.
  if (token.pos === field.end && !SYMBOL_START.test(token.text)) {
    const ch = String.fromCodePoint(token.text.codePointAt(0)!);
    throw syntaxError(
      token.pos,
      `invalid character '${ch}' in field name '${field.raw}${token.raw}'; field names contain only letters, digits and underscores`,
      token.raw,
    );
  }
  throw syntaxError(token.pos, `unknown operator '${token.raw}'; use one of ${OP_LIST}`, token.raw);
}

function readCondition(lexer: Lexer, field: Token): Condition {
  const { op, pos: opPos } = readOperator(lexer, field);
  const name = field.text.toLowerCase();
  if (isNullOp(op)) {
    // Clients send a dummy operand (`x is-null ''`); swallow one unless it is really the next keyword.
    const dummy = lexer.peek('value');
    if (dummy.kind === 'quoted' || (dummy.kind === 'word' && !KEYWORD.test(dummy.text))) lexer.next('value');
    return { kind: 'condition', field: name, op, value: null, pos: { field: field.pos, op: opPos } };
  }
  const token = lexer.next('run');
  const pos = { field: field.pos, op: opPos, value: token.pos };
  if (token.kind === 'quoted') {
    return { kind: 'condition', field: name, op, value: { text: token.text, style: token.quote! }, pos };
  }
  // The raw text: an escaped `\and` is a value, not the keyword.
  if (token.kind === 'word' && !KEYWORD.test(token.raw)) {
    return { kind: 'condition', field: name, op, value: { text: token.text, style: 'bare' }, pos };
  }
  if (token.kind === 'word') {
    throw tokenError(
      token,
      `expected a value after '${op}', but '${token.raw}' is a keyword; quote it ('${token.raw}') to compare with that word`,
    );
  }
  throw tokenError(token, `expected a value after '${op}'`);
}

/** Code points: a surrogate pair counts once. */
function characterCount(text: string): number {
  let n = text.length;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) n--;
    }
  }
  return n;
}

/**
 * Parses a filter. Returns null for an empty or whitespace-only text (no filter).
 * Throws AppError QUERY_SYNTAX for malformed text and QUERY_TOO_COMPLEX past FILTER_LIMITS.
 */
export function parseFilter(text: string): FilterNode | null {
  // Length first: it bounds the work of everything after it. Characters, not UTF-16 units: an emoji is one.
  if (text.length > FILTER_LIMITS.maxLength) {
    const chars = characterCount(text);
    if (chars > FILTER_LIMITS.maxLength) {
      throw tooComplex(`the filter is ${chars} characters long, over the limit of ${FILTER_LIMITS.maxLength}; send a shorter filter or split the query`);
    }
  }
  if (text.trim() === '') return null;

  const lexer = new Lexer(text);
  const stack: Group[] = [{ open: undefined, ors: [], ands: [] }];
  let conditions = 0;
  let previous: Token | undefined;

  for (;;) {
    // Expecting a term: '(' or a condition.
    const token = lexer.next('field');
    let group = stack[stack.length - 1]!;
    if (token.kind === 'lparen') {
      if (stack.length > FILTER_LIMITS.maxDepth) {
        throw tooComplex(
          `the '(' at position ${token.pos + 1} nests parentheses more than ${FILTER_LIMITS.maxDepth} deep; remove redundant parentheses`,
        );
      }
      stack.push({ open: token, ors: [], ands: [] });
      previous = token;
      continue;
    }
    if (token.kind !== 'word' || !isIdentChar(token.text[0]!) || KEYWORD.test(token.text)) {
      throw expectedTerm(token, previous);
    }
    if (++conditions > FILTER_LIMITS.maxConditions) {
      throw tooComplex(
        `more than ${FILTER_LIMITS.maxConditions} conditions (the next one starts at position ${token.pos + 1}); split the query into smaller ones`,
      );
    }
    group.ands.push(readCondition(lexer, token));

    // After a condition or ')': AND, OR, ')' or the end.
    for (;;) {
      const join = lexer.next('value');
      if (join.kind === 'word' && KEYWORD.test(join.text)) {
        if (join.text.toLowerCase() === 'or') {
          group.ors.push(joinNodes('and', group.ands));
          group.ands = [];
        }
        previous = join;
        break;
      }
      if (join.kind === 'rparen') {
        if (stack.length === 1) throw tokenError(join, "unmatched ')': there is no '(' for it to close; remove it");
        stack.pop();
        const node = closeGroup(group);
        group = stack[stack.length - 1]!;
        group.ands.push(node);
        continue;
      }
      if (join.kind === 'eof') {
        if (stack.length > 1) {
          throw tokenError(join, `expected ')' to close '(' opened at position ${group.open!.pos + 1}`);
        }
        return closeGroup(group);
      }
      const close = stack.length > 1 ? ", ')'" : '';
      const hint = join.raw === '&&' || join.raw === '||' ? `; write ${join.raw === '&&' ? 'AND' : 'OR'} instead`
        : join.kind === 'lparen' ? '; inside a value, quote it or write \\( and \\) for parentheses' : '';
      throw tokenError(join, `expected AND, OR${close} or the end of the query after a condition${hint}`);
    }
  }
}
