import { EngramError } from '../../../core/errors.js';
import { IdSlots } from '../../../core/id-slots.js';
import { SCOPE_KEYS, type ScopeKey } from '../../../core/types.js';
import type { DocKind } from '../../../core/types.js';
import type { ScopeFilter } from '../../../ports/storage.js';

/** What vector search checks per candidate without touching SQL: kind, scope and expiry. */
export interface DocAttrInput {
  kind: DocKind | string;
  userId: string | null;
  agentId: string | null;
  sessionId: string | null;
  taskId: string | null;
  expiresAt: number | null;
}

/** A doc's searchable attributes (absent fields as null). */
export const docAttrsOf = (d: {
  kind: string;
  userId?: string | undefined;
  agentId?: string | undefined;
  sessionId?: string | undefined;
  taskId?: string | undefined;
  expiresAt?: number | undefined;
}): DocAttrInput => ({
  kind: d.kind,
  userId: d.userId ?? null,
  agentId: d.agentId ?? null,
  sessionId: d.sessionId ?? null,
  taskId: d.taskId ?? null,
  expiresAt: d.expiresAt ?? null,
});

/** Strings to small integers; 0 stands for "absent". Shared by every tenant table of one cache. */
export class Interner {
  private readonly codes = new Map<string, number>();
  private readonly values: string[] = [];
  code(s: string | null | undefined): number {
    if (s === null || s === undefined) return 0;
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.codes.size + 1;
      this.codes.set(s, c);
      this.values.push(s);
    }
    return c;
  }
  /** The string of a code (null for 0). */
  value(code: number): string | null {
    return code === 0 ? null : (this.values[code - 1] ?? null);
  }
  /** The code if the string was ever seen, else undefined (then no doc can have it). */
  lookup(s: string): number | undefined {
    return this.codes.get(s);
  }
}

/** A compiled per-query test: allowed kind codes, required scope codes, the time expiry is judged at. */
export interface AttrPredicate {
  kinds?: ReadonlySet<number>;
  scope: [column: number, code: number][];
  /** The layered rule (core/layers.ts) as codes; -1 where the identity lacks a field or names an unseen value. */
  layers?: { user: number; agent: number; session: number; anonymous: boolean } | undefined;
  now: number;
}

const SCOPE_INDEX: Record<ScopeKey, number> = { userId: 0, agentId: 1, sessionId: 2, taskId: 3 };

/**
 * Per-doc attributes in typed arrays (about 32 bytes a doc instead of an object each), addressed by a
 * slot that a free list recycles as docs come and go.
 */
export class DocAttributes {
  private slotOf = new IdSlots();
  private free: number[] = [];
  private used = 0;
  private kind = new Int32Array(0);
  private scope = new Int32Array(0);
  private expires = new Float64Array(0);

  constructor(private readonly interner: Interner) {}

  set(docId: number, a: DocAttrInput): void {
    let slot = this.slotOf.get(docId);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used++;
      if (slot >= this.kind.length) this.grow(Math.max(64, slot * 2));
      this.slotOf.set(docId, slot);
    }
    this.kind[slot] = this.interner.code(a.kind);
    const base = slot * 4;
    this.scope[base] = this.interner.code(a.userId);
    this.scope[base + 1] = this.interner.code(a.agentId);
    this.scope[base + 2] = this.interner.code(a.sessionId);
    this.scope[base + 3] = this.interner.code(a.taskId);
    this.expires[slot] = a.expiresAt ?? Infinity;
  }

  delete(docId: number): void {
    const slot = this.slotOf.get(docId);
    if (slot === undefined) return;
    this.slotOf.delete(docId);
    this.free.push(slot);
  }

  /**
   * Every doc's attributes with its own string table (codes are per interner, so a saved table carries its
   * strings): per doc, [kind, user, agent, session, task] as indexes into `strings` (-1: absent), and expiry.
   */
  exportState(): { ids: Float64Array; codes: Int32Array; expires: Float64Array; strings: string[] } {
    const n = this.slotOf.size;
    const ids = new Float64Array(n);
    const codes = new Int32Array(n * 5);
    const expires = new Float64Array(n);
    const local = new Map<number, number>();
    const strings: string[] = [];
    const localCode = (code: number): number => {
      if (code === 0) return -1;
      let c = local.get(code);
      if (c === undefined) {
        c = strings.length;
        local.set(code, c);
        strings.push(this.interner.value(code) ?? '');
      }
      return c;
    };
    let i = 0;
    for (const [docId, slot] of this.slotOf.entries()) {
      ids[i] = docId;
      codes[i * 5] = localCode(this.kind[slot]!);
      for (let k = 0; k < 4; k++) codes[i * 5 + 1 + k] = localCode(this.scope[slot * 4 + k]!);
      expires[i] = this.expires[slot]!;
      i++;
    }
    return { ids, codes, expires, strings };
  }

  /** Adds the docs of an `exportState` result. */
  importState(s: { ids: Float64Array; codes: Int32Array; expires: Float64Array; strings: string[] }): void {
    if (s.codes.length !== s.ids.length * 5 || s.expires.length !== s.ids.length) throw new EngramError('ADAPTER', 'doc attributes state: array lengths disagree');
    // Each saved string is interned once: saved code c (-1: absent) becomes table[c + 1] (0: absent).
    const table = new Int32Array(s.strings.length + 1);
    s.strings.forEach((v, c) => (table[c + 1] = this.interner.code(v)));
    const known = s.strings.length + 1;
    const unknown = () => new EngramError('ADAPTER', 'doc attributes state: unknown string');
    let absentKind = -1;
    const n = s.ids.length;
    if (this.used + n > this.kind.length) this.grow(Math.max(64, this.used + n));
    // Into an empty table, doc i takes slot i and the ids are looked up by binary search (no Map of them).
    const fresh = this.used === 0 && this.slotOf.size === 0;
    if (fresh) {
      this.slotOf = IdSlots.fromSlots(s.ids, 'doc attributes state');
      this.used = n;
    }
    for (let i = 0; i < n; i++) {
      const b = i * 5;
      let slot = i;
      if (!fresh) {
        const docId = s.ids[i]!;
        let at = this.slotOf.get(docId);
        if (at === undefined) {
          at = this.free.pop() ?? this.used++;
          if (at >= this.kind.length) this.grow(Math.max(64, at * 2));
          this.slotOf.set(docId, at);
        }
        slot = at;
      }
      const kc = s.codes[b]! + 1;
      if (kc >>> 0 >= known) throw unknown();
      this.kind[slot] = kc === 0 ? (absentKind < 0 ? (absentKind = this.interner.code('')) : absentKind) : table[kc]!;
      for (let k = 1; k <= 4; k++) {
        const c = s.codes[b + k]! + 1;
        if (c >>> 0 >= known) throw unknown();
        this.scope[slot * 4 + k - 1] = table[c]!;
      }
      this.expires[slot] = s.expires[i]!;
    }
  }

  /** Compiles the query's scope and kinds to codes; undefined when no doc can match (an unseen value). */
  compile(scope: ScopeFilter | undefined, kinds: readonly string[] | undefined, now: number): AttrPredicate | undefined {
    const pred: AttrPredicate = { scope: [], now };
    if (kinds) {
      const codes = kinds.map((k) => this.interner.lookup(k)).filter((c): c is number => c !== undefined);
      if (codes.length === 0) return undefined;
      pred.kinds = new Set(codes);
    }
    for (const key of SCOPE_KEYS) {
      const value = scope?.[key];
      if (value === undefined) continue;
      const code = this.interner.lookup(value);
      if (code === undefined) return undefined;
      pred.scope.push([SCOPE_INDEX[key], code]);
    }
    const layers = scope?.layers;
    if (layers) {
      const code = (v: string | undefined) => (v === undefined ? -1 : (this.interner.lookup(v) ?? -1));
      const anonymous = layers.userId === undefined && layers.agentId === undefined && layers.sessionId === undefined;
      pred.layers = { user: code(layers.userId), agent: code(layers.agentId), session: code(layers.sessionId), anonymous };
    }
    return pred;
  }

  accepts(docId: number, p: AttrPredicate): boolean {
    const slot = this.slotOf.get(docId);
    if (slot === undefined) return false;
    if (this.expires[slot]! <= p.now) return false;
    if (p.kinds && !p.kinds.has(this.kind[slot]!)) return false;
    const base = slot * 4;
    for (const [col, code] of p.scope) if (this.scope[base + col] !== code) return false;
    return p.layers ? this.visible(base, p.layers) : true;
  }

  /** core/layers.ts `visibleTo` over codes (0: absent). */
  private visible(base: number, l: NonNullable<AttrPredicate['layers']>): boolean {
    const user = this.scope[base]!;
    if (l.anonymous) return user === 0;
    if (user !== 0) return user === l.user;
    const session = this.scope[base + 2]!;
    if (session !== 0) return session === l.session;
    const agent = this.scope[base + 1]!;
    return agent === 0 || agent === l.agent;
  }

  private grow(capacity: number): void {
    const kind = new Int32Array(capacity);
    kind.set(this.kind);
    const scope = new Int32Array(capacity * 4);
    scope.set(this.scope);
    const expires = new Float64Array(capacity);
    expires.set(this.expires);
    this.kind = kind;
    this.scope = scope;
    this.expires = expires;
  }
}
