export { withCache } from './with-cache.js';
export { openRedisCache, RedisCache, type OpenRedisCacheOptions } from './redis-cache.js';
export type { CacheLogger, CacheStats, FamilyStats } from './health.js';
export type { RedisCacheOptions, RedisCacheOptionsInput } from './options.js';
export { FAMILIES, type Family } from './keys.js';
