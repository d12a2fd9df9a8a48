/**
 * The baseline's memory: flat-vector RAG. Every ingested text is one chunk, embedded once; a query returns the
 * top-k chunks by cosine. No structure: no outcome labels, no episodes, no links, no facts, no recency.
 */
import type { Embedder } from '../../../src/index.js';
import { cosine } from '../../lib/vector.js';

export interface Chunk {
  id: string;
  text: string;
  /** The round it came from: for labels in the report only, never read by the decision. */
  round: number;
}

export interface ChunkHit extends Chunk {
  score: number;
}

export class FlatVectorRag {
  private readonly chunks: Array<Chunk & { vector: Float32Array }> = [];

  constructor(private readonly embedder: Embedder) {}

  get size(): number {
    return this.chunks.length;
  }

  async add(texts: readonly string[], round: number): Promise<void> {
    const clean = texts.map((t) => t.trim()).filter(Boolean);
    if (clean.length === 0) return;
    const vectors = await this.embedder.embed(clean);
    clean.forEach((text, i) => {
      this.chunks.push({ id: `chunk-${this.chunks.length + 1}`, text, round, vector: vectors[i]! });
    });
  }

  async search(query: string, k: number): Promise<ChunkHit[]> {
    if (this.chunks.length === 0) return [];
    const [q] = await this.embedder.embed([query]);
    return this.chunks
      .map((c) => ({ id: c.id, text: c.text, round: c.round, score: cosine(q!, c.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }
}
