/**
 * What the SQLite lexical and vector caches share: per-tenant structures behind PerTenant, their saved files
 * (`<dir>/<tenant>.<name>.idx`), and the hooks every write transaction calls.
 */
import type { DocAttributes } from '../sql/doc-attributes.js';
import { tenantFileName, type IndexFileHeader } from '../sql/index-file.js';
import { dropIndexParts, loadIndexParts, saveIndexParts, type IndexParts, type LoadedParts } from '../sql/index-snapshot.js';
import { PerTenant, type DocFeed, type IndexEvent, type TenantSource } from './per-tenant.js';

/** Where and how a cache saves its tenants' files (undefined `dir`: not saved). */
export interface IndexFiles {
  dir: string | undefined;
  onEvent?: (e: IndexEvent) => void;
}

interface Indexed {
  index: { remove(id: number): void };
  attrs: DocAttributes;
}

export abstract class TenantCache<T extends Indexed> implements TenantSource<T> {
  protected readonly tenants: PerTenant<T>;
  readonly restore?: TenantSource<T>['restore'];
  readonly save?: TenantSource<T>['save'];
  readonly discard?: TenantSource<T>['discard'];
  /** Deletes the tenant's saved file (see `docsRemoved`). */
  private readonly drop?: (tenant: string) => void;

  constructor(
    readonly name: string,
    feed: DocFeed,
    files: IndexFiles,
    /** What else a file must match (model, analyzer version, …) besides engine, index and tenant. */
    describes: IndexFileHeader['describes'],
  ) {
    const { dir } = files;
    if (dir) {
      const path = (tenant: string) => `${dir}/${tenantFileName(tenant)}.${name}.idx`;
      const about = (tenant: string) => ({ engine: 'sqlite', index: name, ...describes, tenant });
      this.restore = (tenant) => {
        const t = this.empty();
        const r = loadIndexParts(path(tenant), about(tenant), this.partsToLoad(t));
        return r.ok ? { ok: true, value: this.restored(t, r), covers: r.covers, ...(r.checked ? { checked: r.checked } : {}) } : r;
      };
      this.discard = (tenant) => dropIndexParts(path(tenant));
      this.save = (tenant, t, covers) => saveIndexParts(path(tenant), about(tenant), covers, this.parts(t));
      this.drop = (tenant) => dropIndexParts(path(tenant));
    }
    this.tenants = new PerTenant(feed, this, files.onEvent);
  }

  abstract load(tenant: string): T;
  abstract apply(tenant: string, t: T, docIds: readonly number[]): void;
  /** An empty structure for a tenant. */
  protected abstract empty(): T;
  /** What a saved file holds of `t`. */
  protected abstract parts(t: T): IndexParts;
  /** What of `t` a file is read into. */
  protected abstract partsToLoad(t: T): Parameters<typeof loadIndexParts>[2];
  protected abstract restored(t: T, r: Extract<LoadedParts, { ok: true }>): T;

  /** Drops every loaded structure; the next search opens it again. */
  invalidate(): void {
    this.tenants.invalidate();
  }

  advance(before: number, after: number): void {
    this.tenants.advance(before, after);
  }

  /** Saves every loaded tenant's file that is not current (close). */
  saveAll(): void {
    this.tenants.saveAll();
  }

  /**
   * Docs left the store (forget, redaction, expiry): out of the loaded structure, and the tenant's saved file is
   * deleted so none of their bytes stay on disk; the structure is saved again at close or after more changes.
   */
  docsRemoved(tenant: string, docIds: readonly number[]): void {
    if (docIds.length > 0) this.drop?.(tenant);
    const t = this.tenants.loaded(tenant);
    if (!t) return;
    for (const id of docIds) {
      t.index.remove(id);
      t.attrs.delete(id);
    }
  }
}
