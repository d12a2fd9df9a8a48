/** Worker-thread entry: one USE-lite model per thread (the WASM backend uses a single core per thread). */
import type { PackedVectors } from './packed-vectors.js';
import { loadUseLiteModel } from './use-lite-model.js';
import { serveTasks } from './worker-protocol.js';

export interface UseLiteTask {
  texts: string[];
}

// Loading starts at once so that it overlaps with the parent's first request. The rejection is observed
// through the handler; the no-op catch only stops an unhandled-rejection crash while no task is pending.
const model = loadUseLiteModel();
model.catch(() => {});

serveTasks<UseLiteTask, PackedVectors>(async ({ texts }) => {
  const packed = await (await model).embed(texts);
  // Built by `new Float32Array(n)`, so the buffer is a plain, transferable ArrayBuffer.
  return { result: packed, transfer: [packed.data.buffer as ArrayBuffer] };
});
