// One organization's set of objects, looked up by number or by system name (any case).

import { AppError, quoteText } from '../errors.js';
import { buildObject, type ObjectSpec } from './build-object.js';
import type { ObjectDef } from './types.js';

export class OrgSchema {
  readonly objects: readonly ObjectDef[];
  private readonly byType = new Map<number, ObjectDef>();
  private readonly byName = new Map<string, ObjectDef>();

  /** `version` changes whenever an object or field is added, so caches keyed by it stay right. */
  constructor(readonly specs: readonly ObjectSpec[], readonly version: number) {
    this.objects = specs.map(buildObject);
    for (const o of this.objects) {
      this.byType.set(o.objectType, o);
      this.byName.set(o.systemName, o);
    }
  }

  /** Finds an object by number (1), digit string ('1') or system name ('Account'); undefined when none. */
  find(ref: string | number): ObjectDef | undefined {
    if (typeof ref === 'number') return this.byType.get(ref);
    const s = ref.trim();
    if (/^\d+$/.test(s)) return this.byType.get(Number(s));
    return this.byName.get(s.toLowerCase());
  }

  /** Like find, but an unknown object is a 404 OBJECT_UNKNOWN. */
  resolve(ref: string | number): ObjectDef {
    const obj = this.find(ref);
    if (!obj) {
      throw new AppError('OBJECT_UNKNOWN', `Invalid Object Name: ${quoteText(String(ref))}. Use an object's system name (such as 'account') or number (such as 1); 'account' is 1, 'contact' is 2.`);
    }
    return obj;
  }
}
