// The control schema in PostgreSQL (default `orchard`): the tables of control.db, typed (uuid ids,
// timestamptz times), and the usage-notice ledger beside them. One list of migrations for the
// schema, whichever of PostgresControlStore and PostgresNoticeLedger opens it first.

import type { PgMigration } from './pg-db.js';

/** The schema the control plane lives in when none is given. */
export const DEFAULT_CONTROL_SCHEMA = 'orchard';

/** Versioned migrations of the control schema; append only. */
export const CONTROL_MIGRATIONS: readonly PgMigration[] = [
  // 1: the tables of control.db (migrations 1 and 2 there). Texts compared byte for byte ("C"),
  // as SQLite compares them. The e-mail is unique per organization ignoring the case of A–Z only,
  // which is SQLite's NOCASE: lower() under "C" folds ASCII letters and nothing else.
  async (client) => {
    await client.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        plan text COLLATE "C" NOT NULL,
        minute_limit integer,
        primary_user_id uuid,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations (id),
        email text NOT NULL,
        fullname text NOT NULL,
        role text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX users_org_email ON users (org_id, lower(email COLLATE "C"));
      CREATE TABLE tokens (
        hash text COLLATE "C" PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id),
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      CREATE INDEX tokens_user ON tokens (user_id);
      -- grants is json, not jsonb: it keeps the text as written, so keys come back in their order.
      CREATE TABLE roles (
        org_id uuid NOT NULL REFERENCES organizations (id),
        name text COLLATE "C" NOT NULL,
        grants json NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, name)
      );
    `);
  },
  // 2: usage notices (limits.db's notices table). Inserting the row is what entitles a process to
  // send the notice, so the primary key is the deduplication across processes.
  async (client) => {
    await client.query(`
      CREATE TABLE notices (
        org_id uuid NOT NULL,
        day date NOT NULL,
        threshold smallint NOT NULL,
        used integer NOT NULL,
        cap integer NOT NULL,
        claimed_at timestamptz NOT NULL,
        sent_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        PRIMARY KEY (org_id, day, threshold)
      );
      CREATE INDEX notices_unsent ON notices (day, claimed_at) WHERE sent_at IS NULL;
    `);
  },
  // 3: people and tokens administration (control.db's migration 3): a user's disabled time; a
  // token's id, given now to the tokens already there, and its last 4 characters (unknown for those).
  async (client) => {
    await client.query(`
      ALTER TABLE users ADD COLUMN disabled_at timestamptz;
      ALTER TABLE tokens ADD COLUMN id uuid, ADD COLUMN last4 text;
      UPDATE tokens SET id = gen_random_uuid();
      ALTER TABLE tokens ALTER COLUMN id SET NOT NULL;
      CREATE UNIQUE INDEX tokens_id ON tokens (id);
      CREATE INDEX users_org ON users (org_id);
    `);
  },
  // 4: the organizations that have webhooks (control.db's migration 4).
  async (client) => {
    await client.query('ALTER TABLE organizations ADD COLUMN webhooks boolean NOT NULL DEFAULT false');
  },
  // 5: a notice on the schema's channel (its own name) at the commit of any change a token's
  // identity is made of: the organization, the user, the role, the token's revocation. Processes
  // keeping identities in memory drop them on it (cache-listener.ts). Statement triggers, so a change
  // of many rows notifies once; recording a token's use (last_used_at) notifies nothing.
  async (client) => {
    await client.query(`
      CREATE FUNCTION notify_control_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(TG_TABLE_SCHEMA, 'control');
        RETURN NULL;
      END $$;
      CREATE TRIGGER organizations_changed AFTER UPDATE OR DELETE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION notify_control_change();
      CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_control_change();
      CREATE TRIGGER roles_changed AFTER INSERT OR UPDATE OR DELETE ON roles FOR EACH STATEMENT EXECUTE FUNCTION notify_control_change();
      CREATE TRIGGER tokens_changed AFTER UPDATE OF revoked_at, user_id, hash OR DELETE ON tokens FOR EACH STATEMENT EXECUTE FUNCTION notify_control_change();
    `);
  },
  // 6: when a usage notice was last claimed or taken for sending, by the database's clock: a
  // process retrying unsent notices leaves one to the process sending it until the lease ends
  // (notices.ts, NOTICE_LEASE_MS); before, a retry at another process's start sent it again.
  async (client) => {
    await client.query('ALTER TABLE notices ADD COLUMN leased_at timestamptz');
  },
  // 7: the mark of an organization a fixtures load is making (control.db's migration 5); none once
  // the load finished. Loaders of one organization take turns on an advisory lock (docs/fixtures.md).
  async (client) => {
    await client.query('ALTER TABLE organizations ADD COLUMN fixture_loader text');
  },
];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether `id` can be an id of the control plane. Ids are lowercase UUIDs; PostgreSQL would refuse
 * other text in a uuid column with an error, and accept upper case as the same id, where the
 * embedded store (text ids) simply finds nothing: so such ids are answered as absent before asking.
 */
export const isId = (id: string): boolean => UUID_RE.test(id);

/** toISOString of a timestamptz read back (pg gives a Date; it was written from such text, to the millisecond). */
export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
