/**
 * `engram serve`: the HTTP API on the --db database. On the first start of a database it creates an admin
 * key and prints it once on stdout (only its hash is stored). SIGTERM/SIGINT (handled from the "listening" line
 * on) drain in-flight requests, close memory and exit 0; a shutdown while the model still loads logs no failure
 * (warm-up.ts). Logs are JSON lines (pino) on stdout; LOG_LEVEL sets the level. Configuration: flags >
 * ENGRAM_* environment > engram.config.json > defaults (config-file.ts); `serve --help` lists it all.
 */
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { EngramError } from '../../../core/errors.js';
import { openMemory } from '../../../open.js';
import { configHelp, resolveServeConfig, type ServerFlags } from './config.js';
import { warmUpEmbedder } from './warm-up.js';

export const DEFAULT_PORT = 8080;

function numberOption(name: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) {
      throw new EngramError('VALIDATION', `--${name} takes a whole number >= ${min}`, { issues: [{ path: name, message: `integer >= ${min}` }] });
    }
    return n;
  };
}


export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API (OpenAPI document at /openapi.json); first start prints an admin key once')
    .option('--config <path>', 'configuration file (default: ./engram.config.json when it exists, or $ENGRAM_CONFIG)')
    .option('--port <n>', `port (default: $PORT or ${DEFAULT_PORT}; 0 picks a free one)`, numberOption('port', 0))
    .option('--host <host>', 'interface to listen on (default: 127.0.0.1)')
    .option('--rate-limit <n>', 'sustained requests per second per key (0 turns rate limiting off)', numberOption('rate-limit', 0))
    .option('--burst <n>', 'requests a key may send at once', numberOption('burst', 1))
    .option('--body-limit <bytes>', 'largest JSON request body', numberOption('body-limit', 1024))
    .option('--import-limit <bytes>', 'largest JSONL body for POST /v1/import', numberOption('import-limit', 1024))
    .addHelpText('after', configHelp)
    .action(async (o: ServerFlags, cmd: Command) => {
      const { config, file } = resolveServeConfig(cmd, o);
      const { server: serverOptions, ...engramConfig } = config;
      // The HTTP stack loads only for this command, so every other command starts without it.
      const [{ pino }, { bootstrapAdminKey }, { startHttpServer }] = await Promise.all([import('pino'), import('../../http/keys.js'), import('../../http/server.js')]);
      const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
      if (file) logger.info({ file }, 'configuration file read');
      const memory = await openMemory(
        engramConfig,
        { onBackgroundError: (e) => logger.warn({ code: e instanceof EngramError ? e.code : 'INTERNAL' }, 'background task failed') },
      );
      // The model loads on first use; a server loads it now, so the first query does not wait for it.
      const warmUp = warmUpEmbedder(memory.embedder, logger);
      try {
        const adminKey = await bootstrapAdminKey(memory.storage);
        const started: Promise<{ shutdown(): Promise<void> }> = startHttpServer({
          memory,
          logger,
          // Both come before the "listening" line: whoever waits for that line has seen the key, and a signal
          // sent as soon as it is printed drains the server instead of killing it.
          onListening: (at: string) => {
            stopOnSignals(() => {
              warmUp.stop();
              return started.then((server) => server.shutdown());
            }, logger);
            if (adminKey) printAdminKey(adminKey, at);
          },
          options: serverOptions,
        });
        await started;
      } catch (e) {
        warmUp.stop();
        await memory.close().catch(() => undefined);
        throw e;
      }
    });
}

function printAdminKey(key: string, url: string): void {
  process.stdout.write(
    [
      '',
      'Engram admin key (shown this once; only its hash is stored, so save it now):',
      '',
      `  ${key}`,
      '',
      'Create a key for a tenant with it:',
      `  curl -s -X POST ${url}/admin/keys -H "authorization: Bearer $ENGRAM_ADMIN_KEY" \\`,
      `       -H 'content-type: application/json' -d '{"tenant":"default","name":"my-agent"}'`,
      '',
      '',
    ].join('\n'),
  );
}

/** First signal: drain and exit 0 (1 if closing failed). A second signal exits at once. */
function stopOnSignals(shutdown: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'signal received');
    shutdown().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
