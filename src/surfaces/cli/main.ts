#!/usr/bin/env node
import { Command } from 'commander';
import { registerConfig } from './commands/config.js';
import { registerData } from './commands/data.js';
import { registerDemo } from './commands/demo.js';
import { registerGraph } from './commands/graph.js';
import { registerKeys } from './commands/keys.js';
import { registerMcp } from './commands/mcp.js';
import { registerRead } from './commands/read.js';
import { registerServe } from './commands/serve.js';
import { registerWrite } from './commands/write.js';
import { reportError } from './context.js';

const program = new Command()
  .name('engram')
  .description('Engram: a memory engine for LLM agents (timeline, facts, hybrid budgeted context)')
  .option('--db <path>', 'database: a SQLite file path or a storage URL', process.env.ENGRAM_DB ?? './engram.db')
  .option('--store <url>', 'storage URL: sqlite:./engram.db | postgres://user@host/db | pglite:./dir (overrides --db)', process.env.ENGRAM_STORE)
  .option('--cache <url>', 'Redis hot tier in front of the store, e.g. redis://127.0.0.1:6379', process.env.ENGRAM_CACHE)
  .option('--tenant <id>', 'tenant whose memory the command reads and writes (default: "default"; keys list: every tenant)')
  .option('--json', 'machine-readable JSON output', false)
  .showHelpAfterError()
  // Every command's --help lists --db, --store, --cache, --tenant and --json too.
  .configureHelp({ showGlobalOptions: true });

registerWrite(program);
registerRead(program);
registerGraph(program);
registerData(program);
registerDemo(program);
registerServe(program);
registerKeys(program);
registerMcp(program);
registerConfig(program);

program.parseAsync(process.argv).catch((e: unknown) => reportError(e, process.argv.includes('--json')));
