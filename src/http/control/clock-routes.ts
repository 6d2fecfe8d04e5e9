// Control API: the clocks (docs/control-api.md § Clock) — shown, frozen, set, advanced and put back to
// real time, for the whole server (/clock) or one organization (/organizations/{id}/clock).

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { parseDuration, parseInstant, type ClockState } from '../../toolkit/clocks.js';
import type { ControlRouteOptions } from './control-options.js';

export const clockStateSchema = {
  type: 'object',
  required: ['orgId', 'mode', 'now', 'offsetMs', 'inherited'],
  properties: {
    orgId: { type: 'string', nullable: true, description: 'null for the server\'s clock.' },
    mode: { type: 'string', enum: ['real', 'frozen', 'moved'], description: 'real: the real time; frozen: stopped; moved: running at an offset from the real time.' },
    now: { type: 'string', format: 'date-time', description: 'The clock\'s time now.' },
    offsetMs: { type: 'integer', description: 'The clock minus the real time, in milliseconds.' },
    inherited: { type: 'boolean', description: 'For an organization: it has no clock of its own and follows the server\'s.' },
  },
} as const;

const at = { type: 'string', description: 'An ISO 8601 date-time; UTC when it has no zone.', examples: ['2026-03-01T23:59:30Z'] } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The organization id.' } } } as const;

const instantOf = (text: string): number => {
  const ms = parseInstant(text);
  if (ms === undefined) throw new AppError('BODY_INVALID', `The request body is invalid: 'at' must be an ISO 8601 date-time such as 2026-03-01T23:59:30Z; got '${text}'.`);
  return ms;
};

const durationOf = (body: { ms?: number; by?: string }): number => {
  if (body.ms !== undefined && body.by !== undefined) throw new AppError('BODY_INVALID', `The request body is invalid: give 'ms' or 'by', not both.`);
  if (body.ms !== undefined) return body.ms;
  const ms = body.by === undefined ? undefined : parseDuration(body.by);
  if (ms === undefined) throw new AppError('BODY_INVALID', `The request body is invalid: give 'ms' (milliseconds) or 'by', a duration such as 90s, 25h, 1d2h or -1h${body.by !== undefined ? `; got '${body.by}'` : ''}.`);
  return ms;
};

export const clockRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin, toolkit }) => {
  const { clocks } = toolkit;
  const response = { 200: clockStateSchema };

  for (const target of ['server', 'organization'] as const) {
    const org = target === 'organization';
    const base = org ? '/organizations/:id/clock' : '/clock';
    const Name = org ? 'OrganizationClock' : 'ServerClock';
    const whose = org ? 'the organization\'s own clock (its requests follow it rather than the server\'s)' : 'the server\'s clock (every organization without a clock of its own follows it)';
    const params = org ? { params: idParams } : {};
    /** The organization id, once it is known to exist; null for the server. */
    const orgOf = async (request: FastifyRequest): Promise<string | null> => {
      if (!org) return null;
      const { id } = request.params as { id: string };
      await admin.requireOrganization(id);
      return id;
    };

    scope.get(base, {
      schema: {
        operationId: `get${Name}`, tags: ['clock'], ...params,
        summary: org ? 'The organization\'s clock: its own, or the server\'s it follows.' : 'The server\'s clock.',
        response,
      },
    }, async (request) => clocks.state(await orgOf(request)));

    /** A POST that moves the clock: `act` gets the organization (null: the server) and the body. */
    const move = <B>(action: 'freeze' | 'set' | 'advance', summary: string, body: object, act: (orgId: string | null, body: B) => ClockState) =>
      scope.post(`${base}/${action}`, {
        schema: { operationId: `${action}${Name}`, tags: ['clock'], ...params, summary, body, response },
        // Freeze needs no body (its schema takes null, so the document says its body is optional):
        // none is an empty one. Set and advance without one are answered with what they take.
        preValidation: (request, _reply, done) => {
          if (action === 'freeze') request.body ??= {};
          done();
        },
      }, async (request) => act(await orgOf(request), request.body as B));

    move<{ at?: string }>('freeze', `Stops ${whose} at \`at\`, or where it stands now.`,
      { type: ['object', 'null'], additionalProperties: false, properties: { at } },
      (orgId, b) => clocks.freeze(orgId, b.at === undefined ? undefined : instantOf(b.at)));
    move<{ at: string; frozen?: boolean }>('set', `Sets ${whose} to \`at\`; it keeps running from there unless it is frozen or \`frozen\` is true.`,
      { type: 'object', required: ['at'], additionalProperties: false, properties: { at, frozen: { type: 'boolean' } } },
      (orgId, b) => clocks.set(orgId, instantOf(b.at), b.frozen));
    move<{ ms?: number; by?: string }>('advance', `Moves ${whose} forward (backward when negative) by \`ms\` milliseconds or by \`by\`, a duration such as 90s, 25h or 1d2h.`,
      {
        // One of them: a body without either is answered with what the call takes; `by`'s form is
        // checked by durationOf, whose message shows what a duration looks like.
        type: 'object', additionalProperties: false, minProperties: 1,
        properties: { ms: { type: 'integer', description: 'Milliseconds; negative moves the clock back.' }, by: { type: 'string', description: 'A duration: whole numbers of ms, s, m, h or d, such as 90s, 1d2h or -1h.' } },
        examples: [{ by: '25h' }],
      },
      (orgId, b) => clocks.advance(orgId, durationOf(b)));

    scope.delete(base, {
      schema: {
        operationId: `reset${Name}`, tags: ['clock'], ...params,
        summary: org ? 'Removes the organization\'s own clock: it follows the server\'s again.' : 'Puts the server\'s clock back to real time (organizations\' own clocks stay).',
        response,
      },
    }, async (request) => clocks.real(await orgOf(request)));
  }

  scope.get('/clocks', {
    schema: {
      operationId: 'listClocks', tags: ['clock'], summary: 'The server\'s clock and every organization\'s own clock.',
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: clockStateSchema } } } },
    },
  }, async () => ({ items: clocks.list() }));
};
