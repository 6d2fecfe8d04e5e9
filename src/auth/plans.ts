// The subscription plans (docs/limits.md, docs/access.md): each plan's daily request cap and the objects and
// actions it includes. Pure data and lookups; the HTTP layer turns a refusal into a 402.

import { FIRST_CUSTOM_OBJECT } from '../schema/types.js';

export type PlanName = 'free' | 'standard' | 'professional' | 'enterprise';
export const PLAN_NAMES: readonly PlanName[] = ['free', 'standard', 'professional', 'enterprise'];

/** What a request does to records; batch writes are their own action (docs/access.md: free has no batch). */
export type Action = 'read' | 'create' | 'update' | 'delete' | 'batch';

export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete', 'batch'];

export interface Plan {
  readonly name: PlanName;
  /** Requests per UTC day for the whole organization. */
  readonly dailyCap: number;
  /** Standard object system names the plan includes; 'all' includes every standard object. */
  readonly objects: ReadonlySet<string> | 'all';
  /** Whether custom objects (numbers from 1000) are included. */
  readonly customObjects: boolean;
  readonly actions: ReadonlySet<Action>;
}

/** Requests per rolling minute when an organization has no override (docs/limits.md). */
export const DEFAULT_MINUTE_LIMIT = 100;

const EVERY_ACTION: ReadonlySet<Action> = new Set(ACTIONS);

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: {
    name: 'free',
    dailyCap: 500,
    objects: new Set(['account', 'contact', 'lead', 'task', 'note']),
    customObjects: false,
    actions: new Set<Action>(['read', 'create', 'update', 'delete']),
  },
  standard: { name: 'standard', dailyCap: 10_000, objects: 'all', customObjects: true, actions: EVERY_ACTION },
  professional: { name: 'professional', dailyCap: 25_000, objects: 'all', customObjects: true, actions: EVERY_ACTION },
  enterprise: { name: 'enterprise', dailyCap: 50_000, objects: 'all', customObjects: true, actions: EVERY_ACTION },
};

export function planOf(name: PlanName): Plan {
  return PLANS[name];
}

/** Whether the plan includes the object (by its number and system name). */
export function planIncludesObject(plan: Plan, obj: { readonly objectType: number; readonly systemName: string }): boolean {
  if (obj.objectType >= FIRST_CUSTOM_OBJECT) return plan.customObjects;
  return plan.objects === 'all' || plan.objects.has(obj.systemName);
}

/** The cheapest plan for which `includes` holds (plans are listed cheapest first), or undefined. */
export function cheapestPlanWhere(includes: (plan: Plan) => boolean): Plan | undefined {
  return PLAN_NAMES.map(planOf).find(includes);
}
