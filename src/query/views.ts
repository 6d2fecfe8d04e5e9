// Views (docs/compat.md, views): an object's named saved queries in the terms of /api/query — its
// default view of every record, and those defined through the API or the CLI — checked as a query
// body is checked, and run with the page and order a client asks for.

import { AppError, quote, quoteText } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { ObjectDef, ViewSpec } from '../schema/types.js';
import { unstorableText } from '../schema/values.js';
import { undisplayableName } from '../schema/display-text.js';
import { DEFAULT_SORT_FIELD, PAGE_SIZE_RULE, planQuery, QUERY_PAGE, type QueryPlan, type ReadAccess } from './plan.js';
import { QueryFields } from './query-fields.js';
import { pageParam } from './v3-plan.js';

/** Views an object may have besides its default one, and the longest name. */
export const VIEW_LIMITS = { perObject: 100, name: 200 } as const;

/** A view as clients read it: a defined one, or an object's default view (createdon null). */
export type View = Omit<ViewSpec, 'createdon'> & { readonly createdon: string | null };

/**
 * The id of an object's default view: a UUID made of the object's number, the same in every
 * organization (`00000000-0000-4000-8000-000000000001` for account), so a client may keep it.
 */
export function defaultViewId(obj: ObjectDef): string {
  return `00000000-0000-4000-8000-${String(obj.objectType).padStart(12, '0')}`;
}

/** Every object's first view: all its records, every field the caller may read, newest first. */
export function defaultView(obj: ObjectDef): View {
  return { id: defaultViewId(obj), name: `All ${obj.collectionName}`, fields: '*', query: null, sortBy: DEFAULT_SORT_FIELD, sortType: 'desc', createdon: null };
}

/** The object's views: its default view, then those defined, oldest first. */
export function viewsOf(obj: ObjectDef): View[] {
  return [defaultView(obj), ...obj.views];
}

/** The view `ref` names: its id (any case) or `default`; else 404 VIEW_NOT_FOUND. */
export function findView(obj: ObjectDef, ref: string): View {
  const key = ref.trim().toLowerCase();
  const found = key === 'default' ? defaultView(obj) : viewsOf(obj).find((v) => v.id === key);
  if (!found) {
    throw new AppError('VIEW_NOT_FOUND', `The ${obj.systemName} object has no view with id ${quoteText(ref)}. List its views with GET /api/v2/views/${obj.systemName} or orchard view list --org <organization id> --object ${obj.systemName}; 'default' names its default view.`);
  }
  return found;
}

/** The object's defined views without the one `ref` names; 404 when none has that id, 400 for the default view. */
export function withoutView(obj: ObjectDef, ref: string): ViewSpec[] {
  const view = findView(obj, ref);
  if (view.createdon === null) throw invalid(`The default view of ${obj.systemName} (${view.id}) cannot be deleted; it is every object's view of all its records.`);
  return obj.views.filter((v) => v.id !== view.id);
}

function invalid(message: string): AppError {
  return new AppError('DEFINITION_INVALID', message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `fields` as sent: a comma list, `*`, or an array of names or {name}; absent: every field. */
function fieldsText(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return '*';
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) {
    const names = raw.map((f) => (isObject(f) ? f.name : f));
    if (names.every((n): n is string => typeof n === 'string' && !n.includes(','))) return names.join(',') || '*';
  }
  throw invalid(`'fields' must be a comma-separated string of field names, '*', or an array of names; got ${quote(raw)}.`);
}

/** `sortBy: {fieldName, type}` (or a field name alone, ascending) as /api/query's sort_by and sort_type; checked, so messages name `sortBy`. */
function sortOf(named: QueryFields, raw: unknown): { sort_by?: string; sort_type?: string } {
  if (raw === undefined || raw === null || raw === '') return {};
  const entry = typeof raw === 'string' ? { fieldName: raw } : raw;
  if (!isObject(entry) || typeof entry.fieldName !== 'string' || entry.fieldName.trim() === '') {
    throw new AppError('SORT_INVALID', `'sortBy' must be {"fieldName": "<field>", "type": "asc" or "desc"}; got ${quote(raw)}.`);
  }
  const type = entry.type ?? 'asc';
  if (typeof type !== 'string' || !/^\s*(asc|desc)\s*$/i.test(type)) {
    throw new AppError('SORT_INVALID', `'sortBy.type' must be 'asc' or 'desc' (any case); got ${quote(entry.type)}.`);
  }
  const field = named.field(entry.fieldName.trim().toLowerCase(), " in 'sortBy.fieldName'", entry.fieldName);
  return { sort_by: field.name, sort_type: type.trim().toLowerCase() };
}

/**
 * A view defined by `raw` (`{name, fields?, query?, sortBy?}`) for `obj`, checked as a query body:
 * its fields known, its filter parsed and typed, its sort known, for a caller of `access`. Names are
 * unique per object without regard to case (the default view's included).
 */
export function viewDefinition(schema: OrgSchema, obj: ObjectDef, raw: unknown, access: ReadAccess, made: { id: string; createdon: string }): ViewSpec {
  if (!isObject(raw)) throw new AppError('BODY_INVALID', 'The request body must be a JSON object such as {"name": "Lisbon accounts", "fields": "accountname,telephone1", "query": "billingcity = \'Lisbon\'", "sortBy": {"fieldName": "accountname", "type": "asc"}}.');
  if (typeof raw.name !== 'string' || raw.name.trim() === '') throw invalid("A view needs a 'name': a non-empty string.");
  const name = raw.name.trim();
  const problem = unstorableText(name) ?? undisplayableName(name);
  if (problem) throw invalid(`'name': ${problem}`);
  if (name.length > VIEW_LIMITS.name) throw invalid(`'name' is ${name.length} characters long; the most is ${VIEW_LIMITS.name}.`);
  const taken = viewsOf(obj).find((v) => v.name.toLowerCase() === name.toLowerCase());
  if (taken) throw invalid(`The ${obj.systemName} object already has a view named '${taken.name}' (${taken.id}). Choose another name.`);
  if (obj.views.length >= VIEW_LIMITS.perObject) throw invalid(`The ${obj.systemName} object has ${obj.views.length} views, the most it may have. Delete one first.`);
  const fields = fieldsText(raw.fields);
  if (raw.query !== undefined && raw.query !== null && typeof raw.query !== 'string') {
    throw invalid(`'query' must be a filter string such as "billingcity = 'Lisbon'"; got ${quote(raw.query)}.`);
  }
  const query = typeof raw.query === 'string' && raw.query.trim() !== '' ? raw.query : null;
  const named = new QueryFields(schema, obj, access);
  const sort = raw.sortBy === undefined || raw.sortBy === null ? { sort_by: DEFAULT_SORT_FIELD, sort_type: 'desc' } : sortOf(named, raw.sortBy);
  const plan = planQuery(schema, { objecttype: obj.objectType, fields, query, ...sort }, access);
  // A view with '*' keeps it, so that fields added to the object later show; names beside it stay.
  const names = [...new Set(fields.split(',').map((f) => f.trim().toLowerCase()).filter((f) => f !== ''))];
  return {
    id: made.id,
    name,
    fields: names.length === 0 ? '*' : names.includes('*') ? names.join(',') : plan.fields.map((f) => f.name).join(','),
    query,
    sortBy: plan.sort.field.name,
    sortType: plan.sort.desc ? 'desc' : 'asc',
    createdon: made.createdon,
  };
}

/**
 * The change OrgRecords.setViews makes to add the view `raw` defines (checked by viewDefinition
 * against the definitions as committed), and the view it added, once it has run.
 */
export function viewAddition(raw: unknown, access: ReadAccess, made: { id: string; createdon: string }): {
  change: (obj: ObjectDef, schema: OrgSchema) => ViewSpec[];
  added: () => ViewSpec;
} {
  let view: ViewSpec | undefined;
  return {
    change: (obj, schema) => [...obj.views, view = viewDefinition(schema, obj, raw, access, made)],
    added: () => view!,
  };
}

/**
 * A view's own order as /api/query's sort: by `createdon` it is the default order, which needs no
 * permission (docs/access.md), so a role that hides `createdon` still runs (and lists) the default
 * view and those sorted like it; another field is checked as any sort is.
 */
function viewSort(view: View): { sort_by?: string; sort_type: string } {
  return view.sortBy === 'createdon' ? { sort_type: view.sortType } : { sort_by: view.sortBy, sort_type: view.sortType };
}

/**
 * The names of `fields` in a view's run body: the fields a client adds to the view's, as field
 * names or as `{logicalName|name}` objects (docs/compat.md, Views).
 */
function addedFields(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const entries = Array.isArray(raw) ? raw : [raw];
  return entries.map((entry, i) => {
    const name = typeof entry === 'string' ? entry : isObject(entry) ? (entry.logicalName ?? entry.name) : undefined;
    if (typeof name !== 'string' || name.trim() === '') {
      throw new AppError('PARAM_INVALID', `fields[${i}] must be a field name or an object with its 'logicalName' (or 'name'), such as {"logicalName": "billingcity"}; got ${JSON.stringify(entry)}.`);
    }
    return name.trim();
  });
}

/**
 * The query a view runs for a caller: its fields (`*`: those the caller may read), filter and sort,
 * with `raw` (`{pageNumber?, pageSize?, sortBy?, fields?}`) choosing the page, if given another
 * order, and fields to show beside the view's.
 */
export function planView(schema: OrgSchema, obj: ObjectDef, view: View, raw: unknown, access: ReadAccess): QueryPlan {
  const body = raw === undefined || raw === null ? {} : raw;
  if (!isObject(body)) throw new AppError('BODY_INVALID', 'The request body must be a JSON object such as {"pageNumber": 1, "sortBy": {"fieldName": "accountname", "type": "asc"}}.');
  // Conditions added when running a view have no documented shape (the clients that send the member
  // send it empty): refused rather than ignored, which would answer records they did not ask for.
  if (body.conditionGroups !== undefined && body.conditionGroups !== null && !(Array.isArray(body.conditionGroups) && body.conditionGroups.length === 0)) {
    throw new AppError('PARAM_INVALID', `'conditionGroups' is not taken when running a view; send it empty or leave it out, and define a view with the filter (POST /api/v2/views/${obj.objectType}) or send the query to /api/query.`);
  }
  const extra = addedFields(body.fields);
  const sort = body.sortBy === undefined || body.sortBy === null ? viewSort(view) : sortOf(new QueryFields(schema, obj, access), body.sortBy);
  return planQuery(schema, {
    objecttype: obj.objectType,
    fields: [view.fields, ...extra].join(','),
    query: view.query,
    ...sort,
    page_size: pageParam(body.pageSize ?? body.pagesize, 'pageSize', PAGE_SIZE_RULE),
    page_number: pageParam(body.pageNumber ?? body.pagenumber, 'pageNumber', 'a whole number of at least 1'),
  }, access);
}
