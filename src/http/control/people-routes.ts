// Control API: people and tokens — an organization's roles (list, set, delete) and users (list,
// create), a user's role, disabling and deletion, a user's tokens (list, create), revoking and
// rotating a token by its id. The same AdminService calls as the `orchard role …`, `orchard user …`
// and `orchard token …` commands; a token is in a reply only where it is created.

import type { FastifyPluginAsync } from 'fastify';
import { roleItem, userSummary } from '../../admin/admin-service.js';
import type { ControlRouteOptions } from './control-options.js';

const userSchema = {
  type: 'object',
  required: ['id', 'orgId', 'email', 'fullname', 'role', 'disabled', 'disabledAt', 'createdAt'],
  properties: {
    id: { type: 'string' },
    orgId: { type: 'string' },
    email: { type: 'string' },
    fullname: { type: 'string' },
    role: { type: 'string', description: 'admin, or a role defined for the organization.' },
    disabled: { type: 'boolean', description: 'A disabled user\'s tokens are refused.' },
    disabledAt: { type: 'string', format: 'date-time', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

const tokenSchema = {
  type: 'object',
  required: ['id', 'userId', 'last4', 'createdAt', 'lastUsedAt', 'revokedAt'],
  properties: {
    id: { type: 'string' },
    userId: { type: 'string' },
    last4: { type: 'string', nullable: true, description: 'The token\'s last 4 characters; null for tokens made before Orchard kept them.' },
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: 'string', format: 'date-time', nullable: true, description: 'Written at most once a minute per token.' },
    revokedAt: { type: 'string', format: 'date-time', nullable: true },
  },
} as const;

const items = (schema: object) => ({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: schema } } });
const idParams = (what: string) => ({ type: 'object', required: ['id'], properties: { id: { type: 'string', description: `The ${what} id.` } } });
const created = (token: object) => ({
  type: 'object', required: ['token', 'created'],
  properties: { token: { type: 'string', description: 'The new token, shown only in this reply.' }, created: token },
});

const grantSchema = {
  type: 'object', required: ['permissions', 'hidden', 'readOnly'],
  properties: {
    permissions: { type: 'array', items: { type: 'string', enum: ['read', 'create', 'update', 'delete'] } },
    hidden: { type: 'array', items: { type: 'string' }, description: 'Fields the role does not see.' },
    readOnly: { type: 'array', items: { type: 'string' }, description: 'Fields the role reads but does not write.' },
  },
} as const;

const roleSchema = {
  type: 'object', required: ['name', 'builtIn', 'grants', 'updatedAt'],
  properties: {
    name: { type: 'string' },
    builtIn: { type: 'boolean', description: 'admin: every permission on every object, never stored or redefined.' },
    grants: { type: 'object', additionalProperties: grantSchema, description: 'Per object system name; an object not named is out of reach. Empty for admin.' },
    updatedAt: { type: 'string', format: 'date-time', nullable: true },
  },
} as const;

export const peopleRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin }) => {
  scope.get('/organizations/:id/roles', {
    schema: { operationId: 'listRoles', tags: ['users'], summary: 'The roles of an organization: the built-in admin first, then those defined, by name.', params: idParams('organization'), response: { 200: items(roleSchema) } },
  }, async (request) => ({ items: await admin.listRoles((request.params as { id: string }).id) }));

  scope.put('/organizations/:id/roles/:name', {
    schema: {
      operationId: 'setRole', tags: ['users'],
      summary: 'Define a role, or replace its whole definition, in the terms of orchard role set; its users see the change on their next request.',
      params: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', description: 'The organization id.' }, name: { type: 'string', description: 'The role name (not admin).', examples: ['sales'] } } },
      body: {
        type: 'object', required: ['grant'], additionalProperties: false,
        properties: {
          grant: { type: 'string', description: 'object:permission,… per object, separated by ;' },
          hide: { type: 'string', description: 'object:field,… hidden from the role.' },
          readonly: { type: 'string', description: 'object:field,… the role may read but not write.' },
        },
        examples: [{ grant: 'account:read,create,update;contact:read', hide: 'account:telephone1', readonly: 'account:emailaddress1' }],
      },
      response: { 200: roleSchema },
    },
  }, async (request) => {
    const { id, name } = request.params as { id: string; name: string };
    const body = request.body as { grant: string; hide?: string; readonly?: string };
    const role = await admin.setRole({ orgId: id, role: name, grant: body.grant, hide: body.hide, readonly: body.readonly }, { grant: 'grant', hide: 'hide', readonly: 'readonly' });
    return roleItem(role);
  });

  scope.delete('/organizations/:id/roles/:name', {
    schema: {
      operationId: 'deleteRole', tags: ['users'],
      summary: 'Delete a role the organization defined; refused (409 ROLE_IN_USE, naming them) while a user holds it. The built-in admin cannot be deleted.',
      params: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', description: 'The organization id.' }, name: { type: 'string', description: 'The role name.', examples: ['sales'] } } },
      response: { 200: { type: 'object', required: ['orgId', 'name', 'deleted'], properties: { orgId: { type: 'string' }, name: { type: 'string' }, deleted: { type: 'boolean' } } } },
    },
  }, async (request) => {
    const { id, name } = request.params as { id: string; name: string };
    return { ...(await admin.deleteRole(id, name)), deleted: true };
  });

  scope.get('/organizations/:id/users', {
    schema: { operationId: 'listUsers', tags: ['users'], summary: 'The users of an organization, oldest first.', params: idParams('organization'), response: { 200: items(userSchema) } },
  }, async (request) => ({ items: (await admin.listUsers((request.params as { id: string }).id)).map(userSummary) }));

  scope.post('/organizations/:id/users', {
    schema: {
      operationId: 'createUser', tags: ['users'], summary: 'Create a user of the organization and a token for them; the token is shown only in this reply.',
      params: idParams('organization'),
      body: {
        type: 'object', required: ['email'], additionalProperties: false,
        properties: { email: { type: 'string' }, role: { type: 'string', default: 'admin' }, fullname: { type: 'string', minLength: 1 } },
        examples: [{ email: 'ada@acme.example', role: 'admin' }],
      },
      response: { 201: { type: 'object', required: ['user', 'token'], properties: { user: userSchema, token: { type: 'string', description: 'Shown once.' } } } },
    },
  }, async (request, reply) => {
    const body = request.body as { email: string; role: string; fullname?: string };
    const r = await admin.createUser({ orgId: (request.params as { id: string }).id, email: body.email, role: body.role, ...(body.fullname ? { fullname: body.fullname } : {}) });
    return reply.code(201).send({ user: userSummary(r.user), token: r.token });
  });

  scope.patch('/users/:id', {
    schema: {
      operationId: 'updateUser', tags: ['users'],
      summary: 'Change a user\'s role, or disable (their tokens refused from the next request) or enable them.',
      params: idParams('user'),
      body: {
        type: 'object', additionalProperties: false, minProperties: 1,
        properties: { role: { type: 'string' }, disabled: { type: 'boolean' } },
        examples: [{ disabled: true }],
      },
      response: { 200: userSchema },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { role?: string; disabled?: boolean };
    let user = body.role !== undefined ? await admin.setUserRole(id, body.role) : undefined;
    if (body.disabled !== undefined) user = await admin.setUserDisabled(id, body.disabled);
    return userSummary(user!);
  });

  scope.delete('/users/:id', {
    schema: {
      operationId: 'deleteUser', tags: ['users'],
      summary: 'Delete a user and their tokens; their records keep them as owner. The organization\'s primary user cannot be deleted.',
      params: idParams('user'),
      response: { 200: { type: 'object', required: ['id', 'orgId', 'email', 'deleted'], properties: { id: { type: 'string' }, orgId: { type: 'string' }, email: { type: 'string' }, deleted: { type: 'boolean' } } } },
    },
  }, async (request) => {
    const u = await admin.deleteUser((request.params as { id: string }).id);
    return { id: u.id, orgId: u.orgId, email: u.email, deleted: true };
  });

  scope.get('/users/:id/tokens', {
    schema: { operationId: 'listTokens', tags: ['tokens'], summary: 'A user\'s tokens, live and revoked: ids, last 4 characters and times, never the tokens.', params: idParams('user'), response: { 200: items(tokenSchema) } },
  }, async (request) => ({ items: await admin.listTokens((request.params as { id: string }).id) }));

  scope.post('/users/:id/tokens', {
    schema: { operationId: 'createToken', tags: ['tokens'], summary: 'A new token for the user, shown only in this reply.', params: idParams('user'), response: { 201: created(tokenSchema) } },
  }, async (request, reply) => {
    const t = await admin.issueToken((request.params as { id: string }).id);
    return reply.code(201).send({ token: t.token, created: t.info });
  });

  scope.post('/tokens/:id/revoke', {
    schema: { operationId: 'revokeToken', tags: ['tokens'], summary: 'Revoke a token by its id; refused from the next request. One already revoked keeps its time.', params: idParams('token'), response: { 200: tokenSchema } },
  }, async (request) => admin.revokeTokenById((request.params as { id: string }).id));

  scope.post('/tokens/:id/rotate', {
    schema: {
      operationId: 'rotateToken', tags: ['tokens'], summary: 'Replace a live token: a new one for the same user (shown only in this reply), the old one revoked.',
      params: idParams('token'),
      response: { 201: { ...created(tokenSchema), required: ['token', 'created', 'revoked'], properties: { ...created(tokenSchema).properties, revoked: tokenSchema } } },
    },
  }, async (request, reply) => {
    const r = await admin.rotateToken((request.params as { id: string }).id);
    return reply.code(201).send({ token: r.token, created: r.created, revoked: r.revoked });
  });
};
