/** `engram/ai-sdk`: Vercel AI SDK tools and a memory middleware backed by Engram. Needs `ai` (a peer). */
export { engramTools } from './tools.js';
export { engramMiddleware, type EngramMiddlewareOptions } from './middleware.js';
export { CONTEXT_HEADER } from './prompt.js';
export type { EngramAiOptions } from './scope.js';
