/**
 * `engram keys create|list|revoke`: key management straight on the database (no server needed), for the
 * first admin key after the bootstrap one is lost, and for scripts. Secrets are printed once, at creation.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import type { Storage } from '../../../ports/storage.js';
import { openStorage } from '../../../adapters/registry.js';
import { createApiKey, listKeys, revokeKey } from '../../http/keys.js';
import { presentKey } from '../../http/present.js';
import { globals, print, storeUrl, type GlobalOptions } from '../context.js';

/**
 * Key tables do not touch vectors, so storage is initialised under a model name that owns no vectors: this
 * migrates the schema without loading an embedding model.
 */
const KEY_ADMIN_INIT = { embeddingModel: 'engram-keys-cli', dimension: 1 };

async function withStorage<T>(cmd: Command, fn: (s: Storage, g: GlobalOptions) => Promise<T>): Promise<T> {
  const g = globals(cmd);
  const url = storeUrl(g);
  const storage = await openStorage(url);
  try {
    await storage.init(KEY_ADMIN_INIT);
    return await fn(storage, g);
  } finally {
    await storage.close();
  }
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('API keys for `engram serve`: create, list, revoke (only hashes are stored)');

  keys
    .command('create')
    .description('create a tenant key (--tenant <id>) or an admin key (--admin); the secret is printed once')
    .option('--admin', 'an admin key: manages keys over /admin, reads no tenant data')
    .option('--name <name>', 'a label to tell keys apart', 'cli')
    .action(async (o: { admin?: boolean; name: string }, cmd: Command) => {
      // --tenant is the program's global option, so it is read from there.
      const tenant = globals(cmd).tenant;
      if (Boolean(o.admin) === (tenant !== undefined)) {
        throw new EngramError('VALIDATION', 'give exactly one of --tenant <id> or --admin', { issues: [{ path: 'tenant', message: 'tenant or admin' }] });
      }
      await withStorage(cmd, async (s, g) => {
        const created = await createApiKey(s, o.admin ? { role: 'admin', name: o.name } : { role: 'tenant', tenant, name: o.name });
        const view = { key: created.key, record: presentKey(created.record) };
        print(g, view, () => `${created.key}\n(${created.record.role} key ${created.record.id}${created.record.tenant ? ` for tenant ${created.record.tenant}` : ''}; shown once, only its hash is stored)`);
      });
    });

  keys
    .command('list')
    .description('list keys (id, tenant, role, name, prefix, created, revoked; never secrets); --tenant <id> for one tenant')
    .action(async (_o: unknown, cmd: Command) => {
      await withStorage(cmd, async (s, g) => {
        const list = (await listKeys(s, g.tenant)).map(presentKey);
        print(g, list, () =>
          list.length === 0
            ? '(no keys)'
            : list
                .map((k) => `${k.id}  ${k.role.padEnd(6)} ${(k.tenant ?? '-').padEnd(16)} ${k.prefix}…  ${k.name}  ${k.created_at}${k.revoked_at ? `  revoked ${k.revoked_at}` : ''}`)
                .join('\n'),
        );
      });
    });

  keys
    .command('revoke')
    .description('revoke a key by id; the server refuses it from the next request on')
    .argument('<id>', 'key id (key_…)')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await withStorage(cmd, async (s, g) => {
        await revokeKey(s, id);
        print(g, { id, revoked: true }, () => `revoked ${id}`);
      });
    });
}
