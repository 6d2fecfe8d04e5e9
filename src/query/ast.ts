// The syntax tree of a `POST /api/query` filter, as produced by parser.ts and consumed by the plan stage.
// Purely syntactic: field names are not resolved and values are not typed here.

/** Operators that compare a field with a value. */
export const COMPARISON_OPS = ['=', '!=', '<', '>', '<=', '>=', 'start-with', 'not-start-with', 'end-with', 'not-end-with'] as const;

/** Operators that match text against a pattern in which `%` and `_` are wildcards. */
export const MATCH_OPS = ['start-with', 'not-start-with', 'end-with', 'not-end-with'] as const;

/** Operators that test a field for null; an operand after them is accepted and ignored. */
export const NULL_OPS = ['is-null', 'is-not-null'] as const;

/** Every operator, in the order error messages list them. */
export const FILTER_OPS = [...COMPARISON_OPS, ...NULL_OPS] as const;

/** An operator that needs a value. */
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

/** An operator that takes no value. */
export type NullOp = (typeof NULL_OPS)[number];

/** Any filter operator, always in lower case. */
export type FilterOp = ComparisonOp | NullOp;

/** How a value was written: the plan stage may treat a bare `1` differently from a quoted `'1'`. */
export type ValueStyle = 'single' | 'double' | 'bare';

/** A literal operand; `text` has quote escapes already undone. */
export interface FilterValue {
  text: string;
  style: ValueStyle;
}

/** 0-based UTF-16 offsets into the query text, kept so later stages can point at the culprit. */
export interface ConditionPos {
  field: number;
  op: number;
  /** Absent for is-null / is-not-null, whose operand is ignored. */
  value?: number;
}

/** `field op value`; `value` is null exactly when `op` is a NullOp. */
export interface Condition {
  kind: 'condition';
  /** As written, lower-cased. */
  field: string;
  op: FilterOp;
  value: FilterValue | null;
  pos: ConditionPos;
}

/** All children must hold. */
export interface AndNode {
  kind: 'and';
  children: FilterNode[];
}

/** At least one child must hold. */
export interface OrNode {
  kind: 'or';
  children: FilterNode[];
}

/** A whole filter or any part of it. */
export type FilterNode = AndNode | OrNode | Condition;

/** An operator of MATCH_OPS. */
export type MatchOp = (typeof MATCH_OPS)[number];

/** True for start-with, end-with and their negations. */
export function isMatchOp(op: FilterOp): op is MatchOp {
  return (MATCH_OPS as readonly string[]).includes(op);
}

/** True for is-null / is-not-null. */
export function isNullOp(op: FilterOp): op is NullOp {
  return op === 'is-null' || op === 'is-not-null';
}

/**
 * Joins nodes under `kind`, lifting the children of same-kind nodes and unwrapping a lone node.
 * The parser builds every and/or node through this, so parentheses leave no trace in the tree:
 * `(a AND b) AND c` and `a AND (b AND c)` both give and[a, b, c]. Trees are thus canonical
 * (no and-in-and, no or-in-or, no one-child node), which keeps print → parse round trips exact.
 */
export function joinNodes(kind: 'and' | 'or', nodes: readonly FilterNode[]): FilterNode {
  const children: FilterNode[] = [];
  for (const node of nodes) {
    if (node.kind === kind) children.push(...node.children);
    else children.push(node);
  }
  if (children.length === 1) return children[0]!;
  return { kind, children };
}
