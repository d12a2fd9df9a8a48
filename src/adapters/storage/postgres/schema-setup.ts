/**
 * What `init` does before the first statement: under the schema's advisory lock, decide (for a new schema)
 * or read (for an existing one) how vectors are stored, apply migrations, check the server's encoding and
 * prepare the pgvector column. Several processes may run this at once; they take turns.
 */
import { EngramError } from '../../../core/errors.js';
import { applyMigrations, schemaVersion, withAdvisoryLock, type PgMigration } from './migrate.js';
import type { ClientLike, PoolLike } from './pool.js';
import type { SqlNames } from './sql.js';
import { findOrCreateVectorExtension, readMeta, setupAnnColumn, type AnnSetup, type VectorMode, type VectorPreference } from './vector-setup.js';

export interface SchemaSetupOptions {
  schema: string;
  migrations: readonly PgMigration[];
  preference: VectorPreference;
  model: string;
  dimension: number;
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface SchemaSetup {
  names: SqlNames;
  mode: VectorMode;
  ann: AnnSetup | undefined;
}

async function assertUtf8(c: ClientLike): Promise<void> {
  const r = await c.query(`SELECT current_setting('server_encoding') AS enc`);
  const enc = (r.rows[0] as { enc: string }).enc;
  if (enc !== 'UTF8') throw new EngramError('CONFIG', `the database encoding is ${enc}; Engram needs UTF8`);
}

/** The vector mode of a new schema, warning once when pgvector is wanted but missing. */
async function chooseMode(c: ClientLike, o: SchemaSetupOptions): Promise<{ mode: VectorMode; vectorSchema?: string }> {
  if (o.preference === 'bytea') return { mode: 'bytea' };
  const found = await findOrCreateVectorExtension(c);
  if (found.schema) return { mode: 'pgvector', vectorSchema: found.schema };
  if (o.preference === 'pgvector') {
    throw new EngramError('CONFIG', `postgres storage: the "vector" extension is not available (${found.reason})`, { details: { reason: found.reason } });
  }
  o.warn(
    `postgres storage: the "vector" extension is not available (${found.reason}); vectors are stored as bytea and searched in process (exact up to the in-process index's ANN threshold)`,
    { reason: found.reason, schema: o.schema },
  );
  return { mode: 'bytea' };
}

/** The mode an existing schema was created with; pgvector must still be installed for a pgvector schema. */
async function existingMode(c: ClientLike, o: SchemaSetupOptions): Promise<{ mode: VectorMode; vectorSchema?: string }> {
  const mode = (await readMeta(c, o.schema, 'vector_mode')) as VectorMode | undefined;
  if (mode !== 'pgvector') {
    if (o.preference === 'pgvector') throw new EngramError('CONFIG', `schema ${o.schema} was created without pgvector (vectors as bytea)`);
    return { mode: 'bytea' };
  }
  const found = await findOrCreateVectorExtension(c);
  if (!found.schema) throw new EngramError('CONFIG', `schema ${o.schema} uses pgvector, but the "vector" extension is missing (${found.reason})`);
  return { mode: 'pgvector', vectorSchema: found.schema };
}

export function prepareSchema(pool: PoolLike, o: SchemaSetupOptions): Promise<SchemaSetup> {
  return withAdvisoryLock(pool, `engram:schema:${o.schema}`, async (c) => {
    await assertUtf8(c);
    const fresh = (await schemaVersion(c, o.schema)) === 0;
    const { mode, vectorSchema } = fresh ? await chooseMode(c, o) : await existingMode(c, o);
    const names: SqlNames = { schema: o.schema, vectorSchema };
    await applyMigrations(c, names, o.migrations, { vector: mode === 'pgvector' });
    let ann: AnnSetup | undefined;
    if (mode === 'pgvector') {
      ann = await setupAnnColumn(c, names, o.model, o.dimension);
      if (ann.model !== o.model || ann.dimension !== o.dimension) {
        o.warn(
          `postgres storage: the pgvector column of schema ${o.schema} serves model ${ann.model}; vectors of ${o.model} are searched in process`,
          { annModel: ann.model, model: o.model },
        );
      }
    }
    return { names, mode, ann };
  });
}
