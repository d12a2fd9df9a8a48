import type { Db } from './connection.js';

/**
 * Per-tenant in-memory structures derived from the file (vector and lexical indexes), loaded lazily on a
 * tenant's first search and then kept in step by this connection's own writes. Another process's commit
 * bumps SQLite's `PRAGMA data_version` for this connection; `get` checks it and drops everything when it
 * moved, so the next search reloads from the file.
 */
export class PerTenant<T> {
  private readonly tenants = new Map<string, T>();
  private dataVersion: number;

  constructor(
    private readonly db: Db,
    private readonly load: (tenant: string) => T,
  ) {
    this.dataVersion = this.readDataVersion();
  }

  /** The tenant's structure, (re)loaded from the file when missing or stale. */
  get(tenant: string): T {
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.invalidate();
    }
    let t = this.tenants.get(tenant);
    if (t === undefined) {
      t = this.load(tenant);
      this.tenants.set(tenant, t);
    }
    return t;
  }

  /** The tenant's structure if loaded (writes update only what is loaded). */
  loaded(tenant: string): T | undefined {
    return this.tenants.get(tenant);
  }

  get empty(): boolean {
    return this.tenants.size === 0;
  }

  invalidate(): void {
    this.tenants.clear();
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }
}
