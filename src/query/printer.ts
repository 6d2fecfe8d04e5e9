// Prints a FilterNode as canonical filter text (for logs, cache keys and error context).
// Contract: parseFilter(printFilter(n)) equals normalizeFilter(n), positions aside.

import { isNullOp, joinNodes } from './ast.js';
import type { Condition, FilterNode, FilterValue } from './ast.js';
import { isBareChar, isIdentChar } from './lexer.js';

const KEYWORD = /^(and|or)$/i;

/**
 * True if `text` reads back as the same bare word. Bare style is kept where possible because the
 * plan stage may distinguish `statuscode = 1` from `statuscode = '1'`.
 */
function isSafeBare(text: string): boolean {
  if (text === '' || KEYWORD.test(text)) return false;
  for (const ch of text) if (!isBareChar(ch)) return false;
  return true;
}

function isFieldName(name: string): boolean {
  if (name === '' || KEYWORD.test(name)) return false;
  for (const ch of name) if (!isIdentChar(ch)) return false;
  return true;
}

function normalizeValue(value: FilterValue): FilterValue {
  // Double quotes mean the same as single ones, so only one quoted style survives printing.
  const style = value.style === 'bare' && isSafeBare(value.text) ? 'bare' : 'single';
  return { text: value.text, style };
}

/**
 * The tree printFilter's output parses back to: same-kind nesting flattened, lone children unwrapped,
 * field names lower-cased, double-quoted and unprintable bare values turned single-quoted,
 * operands of is-null / is-not-null dropped. Throws a plain Error for trees no text can express
 * (an empty and/or, a field that is not an identifier, a comparison without a value): those are bugs.
 */
export function normalizeFilter(node: FilterNode): FilterNode {
  if (node.kind === 'condition') {
    const field = node.field.toLowerCase();
    if (!isFieldName(field)) throw new Error(`printFilter: '${node.field}' is not a printable field name`);
    if (isNullOp(node.op)) {
      return { kind: 'condition', field, op: node.op, value: null, pos: { field: node.pos.field, op: node.pos.op } };
    }
    if (node.value === null) throw new Error(`printFilter: operator '${node.op}' needs a value`);
    return { kind: 'condition', field, op: node.op, value: normalizeValue(node.value), pos: { ...node.pos } };
  }
  if (node.children.length === 0) throw new Error(`printFilter: an '${node.kind}' node has no children`);
  return joinNodes(node.kind, node.children.map(normalizeFilter));
}

function printValue(value: FilterValue): string {
  return value.style === 'bare' ? value.text : `'${value.text.replaceAll("'", "''")}'`;
}

function printCondition(c: Condition): string {
  return c.value === null ? `${c.field} ${c.op}` : `${c.field} ${c.op} ${printValue(c.value)}`;
}

function printNormal(node: FilterNode): string {
  if (node.kind === 'condition') return printCondition(node);
  const joiner = node.kind === 'and' ? ' AND ' : ' OR ';
  // Every nested group is parenthesized, even AND inside OR where precedence would allow none: easier to read.
  return node.children.map((child) => (child.kind === 'condition' ? printNormal(child) : `(${printNormal(child)})`)).join(joiner);
}

/** Canonical text for `node`: keywords upper-case, single spaces, values single-quoted unless safely bare. */
export function printFilter(node: FilterNode): string {
  return printNormal(normalizeFilter(node));
}
