// The fields a query may name, checked against what the caller may read: the object's own fields,
// and related fields `{lookup}_{field}` (`primarycontactid_fullname`) that read a field of the
// record a lookup points to (docs/compat.md, second round), typed as that field.

import { AppError, quoteText } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { unknownFieldError } from '../schema/record-input.js';
import type { FieldDef, ObjectDef } from '../schema/types.js';

/** The fields of one object hidden from the caller, and the error for asking for one. */
export interface FieldHiding {
  /** Names of hidden fields: '*' leaves them out; naming one anywhere is refused. */
  readonly hidden: ReadonlySet<string>;
  /** The error for a hidden field named at `where` (e.g. " in 'fields'"). */
  hiddenError(field: FieldDef, where: string): AppError;
}

/** What the caller may read (auth/permissions.ts implements it). */
export interface ReadAccess {
  /** Throws (402, 403) when the caller may not read the object's records; else its hidden fields. */
  readObject(obj: ObjectDef): FieldHiding;
}

export const NOTHING_HIDDEN: FieldHiding = { hidden: new Set(), hiddenError: () => new AppError('INTERNAL', 'no field is hidden') };

/** Everything readable: for callers outside a request (tests, tools). */
export const READ_ALL: ReadAccess = { readObject: () => NOTHING_HIDDEN };

/** A field named by the client: unknown → 400, hidden from the caller → 403. */
export function knownField(obj: ObjectDef, name: string, where: string, hiding: FieldHiding, asSent = name): FieldDef {
  const f = obj.fieldsByName.get(name);
  if (!f) throw unknownFieldError(obj, asSent, where);
  if (hiding.hidden.has(f.name)) throw hiding.hiddenError(f, where);
  return f;
}

/**
 * The longest related field name: PostgreSQL cuts identifiers at 63 bytes, and the name is both a
 * column alias and, after `j_`, a join's alias (names are ASCII). Real ones are far shorter.
 */
const RELATED_NAME_MAX = 61;

/**
 * The related field `name` of `obj` reads, if it is one: a lookup of `obj` (not its key), `_`, and a
 * stored field of the lookup's target. Where several splits would do (custom names may hold `_`),
 * the longest lookup name wins.
 */
function splitRelated(schema: OrgSchema, obj: ObjectDef, name: string): { lookup: FieldDef; target: ObjectDef; field: FieldDef } | undefined {
  for (let i = name.lastIndexOf('_'); i > 0; i = name.lastIndexOf('_', i - 1)) {
    const lookup = obj.fieldsByName.get(name.slice(0, i));
    if (lookup?.type !== 'lookup' || lookup.role === 'key') continue;
    const target = schema.find(lookup.target!);
    const field = target?.fieldsByName.get(name.slice(i + 1));
    // A derived name of the target would need a second join: its lookup can be named instead.
    if (target && field && field.role !== 'derived') return { lookup, target, field };
  }
  return undefined;
}

/** The fields one query names on its object, each resolved once per name. */
export class QueryFields {
  /** The caller's hidden fields of the object. */
  readonly hiding: FieldHiding;
  private readonly related = new Map<string, FieldDef>();

  constructor(private readonly schema: OrgSchema, readonly obj: ObjectDef, private readonly access: ReadAccess) {
    this.hiding = access.readObject(obj);
  }

  /** Every field of the object the caller may read, for '*' (related fields are only named). */
  all(): FieldDef[] {
    const { hidden } = this.hiding;
    return hidden.size === 0 ? [...this.obj.fields] : this.obj.fields.filter((f) => !hidden.has(f.name));
  }

  /**
   * The field `name` (lower case) names at `where`: an own field, or a related one. Unknown → 400.
   * A related field needs its lookup not hidden (403), and what reading the target itself needs:
   * read on the target object (402, 403) and its field not hidden there (403). The target's primary
   * field is the exception: it is what the lookup's derived name already shows (`ownerid_fullname`
   * is `ownername`), so it follows that field's rule (docs/access.md).
   */
  field(name: string, where: string, asSent = name): FieldDef {
    if (this.obj.fieldsByName.has(name)) return knownField(this.obj, name, where, this.hiding, asSent);
    const known = this.related.get(name);
    if (known) return known;
    const split = splitRelated(this.schema, this.obj, name);
    if (!split) throw unknownFieldError(this.obj, asSent, where);
    if (name.length > RELATED_NAME_MAX) {
      throw new AppError('FIELD_UNKNOWN', `Invalid field name: ${quoteText(asSent)}${where}: a related field name (lookup_field) may be at most ${RELATED_NAME_MAX} characters long.`);
    }
    const { lookup, target, field } = split;
    const def: FieldDef = {
      ...field,
      name,
      label: `${lookup.label.replace(/ ?id$/i, '')} ${field.label}`,
      role: 'derived',
      required: false,
      indexed: false,
      derivedFrom: lookup.name,
      targetField: field.name,
    };
    if (this.hiding.hidden.has(lookup.name)) throw this.hiding.hiddenError(def, where);
    if (field.name === target.primaryField) {
      const shownAs = this.obj.fields.find((f) => f.derivedFrom === lookup.name && f.targetField === undefined);
      if (shownAs && this.hiding.hidden.has(shownAs.name)) throw this.hiding.hiddenError(shownAs, where);
    } else {
      const targetHiding = this.access.readObject(target);
      if (targetHiding.hidden.has(field.name)) throw targetHiding.hiddenError(field, where);
    }
    this.related.set(name, def);
    return def;
  }
}
