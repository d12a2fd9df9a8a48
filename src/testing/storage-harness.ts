/** Per-test storage lifecycle for the conformance suite: a fresh, initialised storage for every test. */
import { afterEach, beforeEach, expect } from 'vitest';
import { isEngramError } from '../core/errors.js';
import type { Storage } from '../ports/storage.js';
import { reseed, TEST_DIM, TEST_MODEL } from './storage-factories.js';

/**
 * Opens a fresh, empty, *uninitialised* storage. `reopen`, when the adapter is durable, opens the same
 * data again (after the suite closed the first instance), also uninitialised. `cleanup` removes it all.
 */
export type OpenStorage = () => Promise<{ storage: Storage; reopen?: () => Promise<Storage>; cleanup: () => Promise<void> }>;

export interface StorageHarness {
  /** The storage under test (replaced by `reopen`). */
  readonly storage: Storage;
  readonly canReopen: boolean;
  /** Closes the current instance and opens the same data again, initialised. */
  reopen(): Promise<Storage>;
}

export async function initStorage(s: Storage): Promise<Storage> {
  await s.init({ embeddingModel: TEST_MODEL, dimension: TEST_DIM });
  return s;
}

export function useStorageHarness(open: OpenStorage): StorageHarness {
  let current: Storage | undefined;
  let reopenFn: (() => Promise<Storage>) | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let seed = 1;

  beforeEach(async () => {
    reseed(seed++);
    const opened = await open();
    current = await initStorage(opened.storage);
    reopenFn = opened.reopen;
    cleanup = opened.cleanup;
  });

  afterEach(async () => {
    await current?.close();
    await cleanup?.();
    current = undefined;
  });

  return {
    get storage(): Storage {
      if (!current) throw new Error('storage used outside a test');
      return current;
    },
    get canReopen(): boolean {
      return reopenFn !== undefined;
    },
    async reopen(): Promise<Storage> {
      if (!reopenFn) throw new Error('this adapter cannot reopen');
      await current?.close();
      current = await initStorage(await reopenFn());
      return current;
    },
  };
}

/** Asserts the promise rejects with an EngramError of `code`; returns the error for further checks. */
export async function expectCode(p: Promise<unknown>, code: string): Promise<{ code: string; issues: readonly { path: string }[] }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isEngramError(err), `expected EngramError ${code}, got ${String(err)}`).toBe(true);
  expect((err as { code: string }).code).toBe(code);
  return err as { code: string; issues: readonly { path: string }[] };
}
