/**
 * The root cause's vector of a closed episode, stored when the episode is described (closed, or described again
 * after a correction or a redaction changed its cause) under `causeVectorKey(cause)` in the embedding cache. The
 * read path compares the causes of the cases it returns (src/read/cases.ts, recurrence.ts) with these vectors, so
 * a read embeds no cause itself; it falls back to embedding a cause whose vector is missing (an episode closed
 * before vectors were stored, or with no embedder configured).
 */
import { causeVectorKey } from '../../core/docs-learn.js';
import type { Episode } from '../../core/types.js';
import type { EngineContext } from './context.js';

/**
 * Embeds and stores the causes of these closed episodes that have no stored vector yet (one embed per cause,
 * as the read path's query embedding does, so a stored vector is the one a read would have made). A failure is
 * reported, never thrown: a missing vector only costs a read its embed.
 */
export async function storeCauseVectors(ctx: Pick<EngineContext, 'storage' | 'embedder' | 'onError'>, episodes: readonly Episode[]): Promise<number> {
  const embedder = ctx.embedder;
  if (!embedder) return 0;
  const causes = [...new Set(episodes.flatMap((e) => (e.closed && e.rootCause?.trim() ? [e.rootCause] : [])))];
  if (causes.length === 0) return 0;
  try {
    const stored = await ctx.storage.getEmbeddings(causes.map(causeVectorKey));
    const missing = causes.filter((c) => !stored.has(causeVectorKey(c)));
    const rows: { contentHash: string; vector: Float32Array }[] = [];
    for (const cause of missing) {
      const [vector] = await embedder.embed([cause], { priority: 'background' });
      if (vector) rows.push({ contentHash: causeVectorKey(cause), vector });
    }
    if (rows.length) await ctx.storage.putEmbeddings(rows);
    return rows.length;
  } catch (e) {
    ctx.onError(e);
    return 0;
  }
}

/**
 * The vectors of these causes: the stored ones, and the missing ones embedded (not stored: only a described
 * episode's cause is). Empty without an embedder; a failure is reported and leaves the map empty, so a caller
 * judges by wording alone.
 */
export async function loadCauseVectors(ctx: Pick<EngineContext, 'storage' | 'embedder' | 'onError'>, causes: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (!ctx.embedder) return out;
  try {
    const unique = [...new Set(causes)];
    const stored = await ctx.storage.getEmbeddings(unique.map(causeVectorKey));
    for (const c of unique) {
      const v = stored.get(causeVectorKey(c)) ?? (await ctx.embedder.embed([c], { priority: 'background' }))[0];
      if (v) out.set(c, v);
    }
  } catch (e) {
    ctx.onError(e);
    out.clear();
  }
  return out;
}
