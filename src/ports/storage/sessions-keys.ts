/** The working-memory and API-key sub-ports. */
import type { ApiKeyRecord, WorkingMemoryRecord } from '../../core/types.js';

/** Per-session scratchpads under an optimistic version. */
export interface WorkingMemoryStore {
  getWorkingMemory(tenant: string, sessionId: string, now: number): Promise<WorkingMemoryRecord | undefined>;
  /**
   * Stores the scratchpad if `expectedVersion` matches the stored version (0 = must not exist yet), returning the
   * new record with version + 1; otherwise CONFLICT.
   */
  putWorkingMemory(rec: Omit<WorkingMemoryRecord, 'version'>, expectedVersion: number): Promise<WorkingMemoryRecord>;
  deleteWorkingMemory(tenant: string, sessionId: string): Promise<boolean>;
}

/** API keys (lookups by hash span tenants: that is how a request finds its tenant). */
export interface KeyStore {
  putApiKey(k: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(tenant?: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string, at: number): Promise<boolean>;
}
