// Prints a FilterNode as canonical filter text (for logs, cache keys and error context).
// Contract: parseFilter(printFilter(n)) equals normalizeFilter(n), positions aside.

import { isNullOp, joinNodes } from './ast.js';
import type { Condition, FilterNode, FilterValue } from './ast.js';
import { Lexer, isIdentChar } from './lexer.js';

const KEYWORD = /^(and|or)$/i;

/**
 * How bare values are printed. `canonical`: bare only when the text is one word needing no escape,
 * else single-quoted. `builder`: as client query builders write them, bare with backslash escapes
 * wherever that reads back (`Smith \and Sons \(Ltd\)`), single-quoted only where it cannot.
 */
export type PrintStyle = 'canonical' | 'builder';

/**
 * `text` written as a bare value that reads back as exactly `text`, or undefined when none does
 * (empty, spaces at an end, a quote first, a word that would end the value early). Escapes are
 * added, then the lexer itself checks the result, so the printer cannot drift from the grammar.
 */
export function bareForm(text: string): string | undefined {
  // Spaces at an end would be trimmed, a quote first opens a quoted value (no escape exists for either).
  if (text === '' || text.trim() !== text || text[0] === "'" || text[0] === '"') return undefined;
  const escaped = text
    .replace(/[\\()]/g, '\\$&')
    .split(/(\s+)/)
    .map((word) => (KEYWORD.test(word) ? `\\${word}` : word))
    .join('');
  const token = new Lexer(escaped).peek('run');
  return token.kind === 'word' && token.pos === 0 && token.end === escaped.length && token.text === text ? escaped : undefined;
}

/**
 * The bare form `style` prints for `text`, if any. Bare style is kept where possible because the
 * plan stage may distinguish `statuscode = 1` from `statuscode = '1'`.
 */
function printedBare(text: string, style: PrintStyle): string | undefined {
  const bare = bareForm(text);
  return style === 'builder' || (bare === text && !/\s/.test(text)) ? bare : undefined;
}

function isFieldName(name: string): boolean {
  if (name === '' || KEYWORD.test(name)) return false;
  for (const ch of name) if (!isIdentChar(ch)) return false;
  return true;
}

function normalizeValue(value: FilterValue, style: PrintStyle): FilterValue {
  // Double quotes mean the same as single ones, so only one quoted style survives printing.
  const bare = value.style === 'bare' && printedBare(value.text, style) !== undefined;
  return { text: value.text, style: bare ? 'bare' : 'single' };
}

/**
 * The tree printFilter's output parses back to: same-kind nesting flattened, lone children unwrapped,
 * field names lower-cased, double-quoted bare values and those `style` cannot print bare turned
 * single-quoted, operands of is-null / is-not-null dropped. Throws a plain Error for trees no text
 * can express (an empty and/or, a field that is not an identifier, a comparison without a value):
 * those are bugs.
 */
export function normalizeFilter(node: FilterNode, style: PrintStyle = 'canonical'): FilterNode {
  if (node.kind === 'condition') {
    const field = node.field.toLowerCase();
    if (!isFieldName(field)) throw new Error(`printFilter: '${node.field}' is not a printable field name`);
    if (isNullOp(node.op)) {
      return { kind: 'condition', field, op: node.op, value: null, pos: { field: node.pos.field, op: node.pos.op } };
    }
    if (node.value === null) throw new Error(`printFilter: operator '${node.op}' needs a value`);
    return { kind: 'condition', field, op: node.op, value: normalizeValue(node.value, style), pos: { ...node.pos } };
  }
  if (node.children.length === 0) throw new Error(`printFilter: an '${node.kind}' node has no children`);
  return joinNodes(node.kind, node.children.map((child) => normalizeFilter(child, style)));
}

function printValue(value: FilterValue, style: PrintStyle): string {
  return value.style === 'bare' ? printedBare(value.text, style)! : `'${value.text.replaceAll("'", "''")}'`;
}

function printCondition(c: Condition, style: PrintStyle): string {
  return c.value === null ? `${c.field} ${c.op}` : `${c.field} ${c.op} ${printValue(c.value, style)}`;
}

function printNormal(node: FilterNode, style: PrintStyle): string {
  if (node.kind === 'condition') return printCondition(node, style);
  const joiner = node.kind === 'and' ? ' AND ' : ' OR ';
  // Every nested group is parenthesized, even AND inside OR where precedence would allow none: easier to read.
  return node.children.map((child) => (child.kind === 'condition' ? printNormal(child, style) : `(${printNormal(child, style)})`)).join(joiner);
}

/**
 * Text for `node`: keywords upper-case, single spaces, values single-quoted unless `style` prints
 * them bare (canonical by default).
 */
export function printFilter(node: FilterNode, style: PrintStyle = 'canonical'): string {
  return printNormal(normalizeFilter(node, style), style);
}
