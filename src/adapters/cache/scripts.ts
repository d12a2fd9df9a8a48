/**
 * The Lua scripts of the hot tier. Scripts run atomically in Redis, so "read the tokens (creating them if
 * absent) and the entry they address" is one round trip with no interleaving. The entry key is assembled
 * inside the script, so this needs a standalone Redis (or one Sentinel-managed primary), not Redis Cluster.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Script {
  lua: string;
  sha: string;
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * KEYS: the token keys (n). ARGV: n fresh tokens (each used only when its key is absent), the entry base, then
 * the sub keys of the entries wanted (none: tokens only). Returns { tokens, { entry or nil per sub } }; an
 * entry key is `<base><token1>.<token2>…:<sub>`.
 */
export const LOOKUP = script(`
local n = #KEYS
local tokens = {}
for i = 1, n do
  local v = redis.call('GET', KEYS[i])
  if not v then
    v = ARGV[i]
    redis.call('SET', KEYS[i], v)
  end
  tokens[i] = v
end
local prefix = ARGV[n + 1] .. table.concat(tokens, '.') .. ':'
local entries = {}
for i = n + 2, #ARGV do
  entries[#entries + 1] = redis.call('GET', prefix .. ARGV[i]) or false
end
return { tokens, entries }
`);

/**
 * Stores an entry, but only while the tokens it was read under are still current: a fill that lands after a
 * write's bump is refused, so no entry is ever created under superseded tokens (and a purge after `forget`
 * cannot be undone by a slow reader). Versioned entries (`<version>|<json>`, working memory) are also refused
 * when the key already holds that version or a newer one, so a slow reader cannot replace a newer write-through.
 * KEYS: the token keys (n), then the entry. ARGV: the n tokens, value, ttl ms, version ('' = unversioned).
 * Returns 1 stored, 0 refused (older version), -1 refused (tokens changed).
 */
export const FILL = script(`
local n = #KEYS - 1
for i = 1, n do
  if redis.call('GET', KEYS[i]) ~= ARGV[i] then return -1 end
end
local entry, value, ttl, version = KEYS[n + 1], ARGV[n + 1], ARGV[n + 2], ARGV[n + 3]
if version ~= '' then
  local cur = redis.call('GET', entry)
  if cur then
    local v = tonumber(string.match(cur, '^(%d+)|'))
    if v and v >= tonumber(version) then return 0 end
  end
end
redis.call('SET', entry, value, 'PX', ttl)
return 1
`);

/** EVALSHA, falling back to EVAL when Redis does not know the script (first use, or after a restart). */
export async function runScript(client: Redis, s: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  try {
    return await client.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
    return client.eval(s.lua, keys.length, ...keys, ...args);
  }
}
