// How a route's schema error is answered: 400 BODY_INVALID or PARAM_INVALID naming the member or
// parameter and what would be accepted (or that a query parameter is to be given once). The control
// API's calls also say, of a body that is missing, not an object, or lacks a member the call needs,
// what the call takes: from the route's body schema.

import type { FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import { AppError, quote, quoteText } from '../errors.js';
import { numberRange, scalarExpected } from './query-numbers.js';

type SchemaErrorFormatter = NonNullable<FastifyServerOptions['schemaErrorFormatter']>;
/** body, querystring, params or headers. */
type DataVar = Parameters<SchemaErrorFormatter>[1];

interface MemberSchema { type?: unknown; description?: string; enum?: readonly unknown[]; minimum?: number; maximum?: number; format?: string }

interface ObjectSchema {
  type?: unknown;
  nullable?: boolean;
  description?: string;
  properties?: Readonly<Record<string, MemberSchema>>;
  additionalProperties?: unknown;
  required?: readonly string[];
  minProperties?: number;
}

/** An error as Ajv reports it with `verbose`: the schema that holds the keyword, and the value checked. */
type SchemaError = FastifySchemaValidationError & { parentSchema?: ObjectSchema; data?: unknown };

const oneOf = (values: readonly unknown[]): string => `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** What a schema error says was wrong, naming what would be accepted where ajv's own text does not. */
function schemaFault(e: SchemaError, dataVar: DataVar): string {
  // The query string parser makes an array of a parameter given twice; no query schema takes one.
  if (dataVar === 'querystring' && Array.isArray(e.data)) return `was given more than once (${e.data.length} times); it must be given once`;
  const members = Object.keys(e.parentSchema?.properties ?? {});
  switch (e.keyword) {
    case 'enum':
      return `must be ${oneOf(e.params.allowedValues as unknown[])}`;
    case 'additionalProperties': {
      const kind = dataVar === 'body' ? 'member' : 'parameter';
      return `is not a ${kind} this route takes; ${members.length ? `it takes ${members.join(', ')}` : `it takes none there`}`;
    }
    case 'minProperties':
      return members.length ? `must name at least ${e.params.limit} of ${members.join(', ')}` : `must have at least ${e.params.limit} member(s)`;
    case 'minimum':
    case 'maximum': {
      // The whole range and the value sent, not ajv's ">= 1": a query string's value as it was written.
      const got = dataVar === 'body' ? quote(e.data) : quoteText(String(e.data));
      return `must be ${numberRange((e.parentSchema ?? {}) as MemberSchema)}; got ${got}`;
    }
    default:
      return e.message ?? 'is invalid';
  }
}

/** 'a', 'b' and 'c' (or `or`). */
function listOf(items: readonly string[], last = 'and'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

/** A schema's description as part of a sentence: no final period, its first word in lower case unless it is an acronym. */
const inSentence = (description: string | undefined): string | undefined => description?.replace(/\.$/, '').replace(/^[A-Z](?=[a-z ])/, (c) => c.toLowerCase());

/** A member as a message names it, with what it is: its description, else what its type says. */
function memberSaid(name: string, s: MemberSchema = {}): string {
  const what = inSentence(s.description) ?? (s.enum ? oneOf(s.enum) : s.format === 'date-time' ? 'an ISO 8601 date-time' : scalarExpected(s));
  return what ? `'${name}' (${what})` : `'${name}'`;
}

/**
 * For an error of the body as a whole — none sent, not an object, or lacking a member the call
 * needs — what the call takes, from its schema: the members it needs, with what each is, then the
 * others it may have; and what it got. undefined for any other error.
 */
function bodyNeeds(e: SchemaError): string | undefined {
  if (e.instancePath !== '' || !['type', 'required', 'minProperties'].includes(e.keyword)) return undefined;
  const schema = e.parentSchema ?? {};
  const properties = schema.properties ?? {};
  const members = Object.keys(properties);
  const required = (schema.required ?? []).filter((name) => Object.hasOwn(properties, name));
  const data = e.data;
  const missing = data !== null && typeof data === 'object' && !Array.isArray(data) ? required.filter((name) => !Object.hasOwn(data, name)) : [];
  const quoted = (names: readonly string[]) => names.map((name) => `'${name}'`);
  // No body reaches the schema as null (Fastify's validation), as a JSON null does.
  const got = data === null || data === undefined ? 'got no body'
    : missing.length > 0 ? `${listOf(quoted(missing))} ${missing.length === 1 ? 'is' : 'are'} missing`
    : `got ${quote(data)}`;
  if (members.length === 0) {
    if (schema.additionalProperties === false) return `This call takes no body members: send no body, or {}; ${got}.`;
    const description = inSentence(schema.description);
    return `This call needs a JSON body, an object${description ? `: ${description}` : ''}; ${got}.`;
  }
  if (required.length > 0) {
    const others = members.filter((name) => !required.includes(name));
    const needs = listOf(required.map((name) => memberSaid(name, properties[name])));
    return `This call needs a JSON body with ${needs}${others.length > 0 ? `, and may have ${listOf(quoted(others))}` : ''}; ${got}.`;
  }
  const least = schema.minProperties ?? 0;
  if (least > 0) return `This call needs a JSON body with at least ${least === 1 ? 'one' : least} of ${listOf(members.map((name) => memberSaid(name, properties[name])), 'or')}; ${got}.`;
  const optional = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
  return `This call ${optional ? 'takes no body, or a JSON object' : 'needs a JSON body, an object'} with any of ${listOf(quoted(members))}; ${got}.`;
}

/**
 * The schema error formatter of the app, or of a scope. With `saysWhatBodyTakes` (the control API),
 * a body refused as a whole is answered with what the call takes (bodyNeeds) rather than with Ajv's
 * "must be object".
 */
export function schemaErrorFormatter(options: { readonly saysWhatBodyTakes?: boolean } = {}): SchemaErrorFormatter {
  return (errors, dataVar) => {
    const e = errors[0] as SchemaError | undefined;
    const needs = options.saysWhatBodyTakes && dataVar === 'body' && e ? bodyNeeds(e) : undefined;
    if (needs) return new AppError('BODY_INVALID', needs);
    // An unknown member is named by its own path, as the members asked for are.
    const path = e?.keyword === 'additionalProperties' ? `${e.instancePath}/${e.params.additionalProperty}` : e?.instancePath;
    const where = path ? path.replace(/^\//, '').replace(/\//g, '.') : '';
    const what = `${where ? `'${where}' ` : ''}${e ? schemaFault(e, dataVar) : 'is invalid'}`;
    return dataVar === 'body'
      ? new AppError('BODY_INVALID', `The request body is invalid: ${what}. Check your data.`)
      : new AppError('PARAM_INVALID', `Invalid ${dataVar === 'querystring' ? 'query parameter' : 'path parameter'} ${what}.`);
  };
}
