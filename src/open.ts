/**
 * `openMemory(config)`: builds storage, embedder and reranker from configuration through the provider
 * registry, then `createMemory`. Surfaces call this; library users may also pass instances to createMemory.
 */
import { parseEngramConfig, type EngramConfig, type EngramConfigInput } from './core/config.js';
import { createEmbedder, createReranker, openStorage } from './adapters/registry.js';
import { openRedisCache, withCache } from './adapters/cache/index.js';
import { createLlm } from './adapters/llms/registry.js';
import type { EngramConfig as Config } from './core/config.js';
import { createMemory, type Memory, type MemoryDeps } from './memory.js';

export async function openMemory(
  input: EngramConfigInput | EngramConfig = {},
  opts: Pick<MemoryDeps, 'clock' | 'onBackgroundError'> = {},
): Promise<Memory> {
  const config = parseEngramConfig(input);
  const primary = await openStorage(config.storage.url, { indexDir: config.storage.indexDir });
  const storage = config.cache ? withCache(primary, await openCache(config.cache)) : primary;
  const embedder = createEmbedder(config.embedder);
  const reranker = createReranker(config.reranker);
  const llm = createLlm(config.llm);
  try {
    return await createMemory({ storage, embedder, reranker, config, ...(llm ? { llm } : {}), ...opts });
  } catch (e) {
    await embedder.close().catch(() => undefined);
    await storage.close().catch(() => undefined);
    throw e;
  }
}

function openCache(cfg: NonNullable<Config['cache']>) {
  return openRedisCache({
    url: cfg.url,
    ttl: { factHours: cfg.factTtlHours, windowSeconds: cfg.windowTtlSeconds },
    logger: { warn: (m: string) => process.stderr.write(`engram cache: ${m}\n`) },
  });
}
