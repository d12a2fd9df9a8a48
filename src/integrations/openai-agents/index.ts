/** `engram/openai-agents`: an OpenAI Agents SDK session stored on Engram's timeline. Needs `@openai/agents-core` (a peer, for its types). */
export { EngramSession, type EngramSessionOptions } from './session.js';
