import type { AppendResult, NewEvent, Storage } from '../ports/storage.js';

interface Pending {
  events: readonly NewEvent[];
  resolve: (r: AppendResult[]) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: appends issued in the same tick share one transaction (one fsync), and each caller is
 * answered only after that transaction is durable. If the shared batch fails, every request is retried
 * alone so one caller's bad batch never fails another's.
 */
export class AppendQueue {
  private pending: Pending[] = [];
  private scheduled = false;
  private inFlight = new Set<Promise<void>>();

  constructor(private readonly storage: Storage) {}

  append(events: readonly NewEvent[]): Promise<AppendResult[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ events, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => this.track(this.flush()));
      }
    });
  }

  /** Resolves when every append accepted so far has been answered. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      await Promise.allSettled([...this.inFlight]);
      if (this.pending.length > 0 && !this.scheduled) this.track(this.flush());
    }
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 1) return this.runAlone(batch[0]!);
    try {
      const results = await this.storage.appendEvents(batch.flatMap((p) => p.events));
      let offset = 0;
      for (const p of batch) {
        p.resolve(results.slice(offset, offset + p.events.length));
        offset += p.events.length;
      }
    } catch {
      for (const p of batch) await this.runAlone(p);
    }
  }

  private async runAlone(p: Pending): Promise<void> {
    try {
      p.resolve(await this.storage.appendEvents(p.events));
    } catch (e) {
      p.reject(e);
    }
  }
}
