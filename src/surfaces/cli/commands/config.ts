/**
 * `engram config print`: the effective configuration of `engram serve` (flags > ENGRAM_* environment >
 * engram.config.json > defaults) as JSON, secrets masked. Also the shared pieces `serve` and `mcp` use to
 * resolve it, and the help text that lists every variable with its default.
 */
import type { Command } from 'commander';
import { globals, storeUrl } from '../context.js';
import { environmentVariables, loadServeConfig, maskSecrets, serveConfigSchema, type ServeConfig } from '../config-file.js';

type Obj = Record<string, unknown>;

export interface ServerFlags {
  config?: string;
  port?: number;
  host?: string;
  rateLimit?: number;
  burst?: number;
  bodyLimit?: number;
  importLimit?: number;
}

/** What the command line says, and only what it says: defaults of global flags do not count as flags. */
export function flagLayer(cmd: Command, o: ServerFlags = {}): Obj {
  const g = globals(cmd);
  const given = (name: string) => cmd.getOptionValueSourceWithGlobals(name) === 'cli';
  const server: Obj = {
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.host !== undefined ? { host: o.host } : {}),
    ...(o.bodyLimit !== undefined ? { bodyLimitBytes: o.bodyLimit } : {}),
    ...(o.importLimit !== undefined ? { importLimitBytes: o.importLimit } : {}),
    ...(o.rateLimit !== undefined || o.burst !== undefined
      ? { rateLimit: { ...(o.rateLimit !== undefined ? { perSecond: o.rateLimit } : {}), ...(o.burst !== undefined ? { burst: o.burst } : {}) } }
      : {}),
  };
  return {
    ...(given('store') || given('db') ? { storage: { url: storeUrl(g) } } : {}),
    ...(given('cache') && g.cache ? { cache: { url: g.cache } } : {}),
    ...(g.tenant ? { defaultTenant: g.tenant } : {}),
    ...(Object.keys(server).length ? { server } : {}),
  };
}

export function resolveServeConfig(cmd: Command, o: ServerFlags = {}): { config: ServeConfig; file?: string | undefined } {
  return loadServeConfig({ file: o.config ?? process.env.ENGRAM_CONFIG, flags: flagLayer(cmd, o) });
}

function at(obj: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Obj)[k] : undefined), obj);
}

/** Every variable with its default (none for a provider's own settings until that provider is chosen). */
export function configHelp(): string {
  const defaults = serveConfigSchema.parse({});
  const lines = environmentVariables().map((v) => {
    const d = at(defaults, v.path);
    return `  ${v.env.padEnd(48)} ${v.path.join('.')}${d === undefined ? '' : ` (default: ${JSON.stringify(d)})`}`;
  });
  return [
    '',
    'Configuration: flags > ENGRAM_* environment > engram.config.json (or --config / ENGRAM_CONFIG) > defaults.',
    'The file holds openMemory options plus a "server" section; ENGRAM_DB, ENGRAM_STORE, ENGRAM_CACHE and PORT',
    'are short names for the storage URL, the cache URL and the port. `engram config print` shows the result.',
    '',
    ...lines,
  ].join('\n');
}

export function registerConfig(program: Command): void {
  const config = program.command('config').description('show the configuration engram serve runs with');
  config
    .command('print')
    .description('the effective configuration (flags > ENGRAM_* env > engram.config.json > defaults), secrets masked')
    .option('--config <path>', 'configuration file (default: ./engram.config.json when it exists, or $ENGRAM_CONFIG)')
    .action((o: ServerFlags, cmd: Command) => {
      const { config: effective, file } = resolveServeConfig(cmd, o);
      process.stdout.write(`${JSON.stringify({ ...(file ? { file } : {}), config: maskSecrets(effective) }, null, 2)}\n`);
    });
}
