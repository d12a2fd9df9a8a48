/** `engram/langgraph`: a LangGraph.js store backed by Engram. Needs `@langchain/langgraph-checkpoint` (a peer). */
export { EngramStore, type EngramStoreOptions, type EngramPutOperation } from './store.js';
export { factKeyOf } from './mapping.js';
