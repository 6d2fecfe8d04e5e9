// What a read of the SQLite store runs and where: the statements of query and list pages, and the
// bounds under which a read is answered on the main thread rather than handed to a reader thread.

import { isPlanGroup, type PlanNode, type QueryPlan } from '../../query/plan.js';
import type { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef } from '../../schema/types.js';
import { indexedEqualities, selectListPage, sortsByIndex, type PageOptions, type SqlCache } from '../record-sql.js';
import { ALIVE_GUARD, BUDGET_TERM, type ReadStatement, type SqlStatement } from './read-protocol.js';
import { q } from './sqlite-ddl.js';
import { SQLITE_PAGE, sqliteSql } from './sqlite-sql.js';

/**
 * The read of a query page: its SQL, or, when its filter has equalities on indexed fields while it
 * sorts by another indexed field, the two ways to read it (ChooseStatement). `bounded` gives the
 * variant for runBounded, every statement carrying the budget term instead of the reader thread's
 * cancellation guard.
 */
export function queryStatement(cache: SqlCache, schema: OrgSchema, plan: QueryPlan, bounded = false): ReadStatement {
  const page = (options: PageOptions): SqlStatement => ({ ...cache.queryPage(sqliteSql, schema, plan, options), raw: true });
  const guard = bounded ? BUDGET_TERM : ALIVE_GUARD;
  const equalities = indexedEqualities(plan);
  if (equalities.length === 0) return page({ ...SQLITE_PAGE, guard: bounded || !isIndexWalk(plan) ? guard : undefined });
  return {
    choose: {
      tableRows: cache.get('rows', plan.obj, () => `SELECT max(rowid) AS n FROM ${q(plan.obj.systemName)}`),
      need: plan.pageNumber * plan.pageSize + 1,
      common: page({ ...SQLITE_PAGE, noIndex: new Set(equalities.map((e) => e.field.name)), guard: bounded ? BUDGET_TERM : `${BUDGET_TERM} AND ${ALIVE_GUARD}` }),
      rare: page({ ...SQLITE_PAGE, guard }),
    },
  };
}

/**
 * A page read by walking an index only as far as its end, with nothing to test per row: no filter,
 * sorted by an indexed field. Its cost is bounded by the table (page 2,000 of a million rows steps
 * 100,000 index entries, about a millisecond), so it needs no cancellation guard, and the guard's
 * test on every entry stepped made such pages five times slower.
 */
export function isIndexWalk(plan: QueryPlan): boolean {
  return plan.filter === null && sortsByIndex(plan);
}

/** The SQL of a GET-list page (limit and offset bound): an index walk of createdon (see isIndexWalk), so no guard. */
export function listPageSql(schema: OrgSchema, obj: ObjectDef): string {
  return selectListPage(sqliteSql, schema, obj, { limit: 0, offset: 0 }, { ...SQLITE_PAGE, guard: undefined }).compile().sql;
}

/**
 * Rows a query may examine on the main thread before it is handed to a reader thread instead
 * (runBounded): about a millisecond of work for a filter of a few conditions, and the page it
 * builds is no longer than that. A filter with more than QUICK_CONDITIONS conditions costs more per
 * row, so its bound shrinks in proportion: at most QUICK_ROWS × QUICK_CONDITIONS conditions are
 * tested on the main thread, whatever the filter.
 */
export const QUICK_ROWS = 256;
const QUICK_CONDITIONS = 8;

/**
 * Index entries an index walk (isIndexWalk) may step on the main thread for each row of the bound:
 * a step with nothing to test costs about 13 ns here, a row examined against a filter 1–4 µs, so
 * QUICK_ROWS × 512 = 131,072 steps (page 2,621 of 50) is about the same millisecond or two.
 */
const INDEX_STEPS_PER_ROW = 512;

/** Whether an index walk (isIndexWalk) of `entries` entries is short enough for the main thread (see INDEX_STEPS_PER_ROW). */
export function walkFitsMainThread(entries: number, limit = QUICK_ROWS): boolean {
  return entries <= limit * INDEX_STEPS_PER_ROW;
}

/** The index entries a query page that is an index walk steps: the page's end and one row more (IsLastPage). */
export function walkOf(plan: QueryPlan): number {
  return plan.pageNumber * plan.pageSize + 1;
}

/** The main-thread bound of rows examined for `plan` (see QUICK_ROWS). */
export function quickRows(plan: Pick<QueryPlan, 'filter'>, limit = QUICK_ROWS): number {
  const conditions = countConditions(plan.filter);
  return conditions <= QUICK_CONDITIONS ? limit : Math.floor((limit * QUICK_CONDITIONS) / conditions);
}

function countConditions(node: PlanNode | null): number {
  if (!node) return 0;
  return isPlanGroup(node) ? node.children.reduce((n, c) => n + countConditions(c), 0) : 1;
}
