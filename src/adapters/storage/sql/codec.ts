/**
 * Value codecs shared by every engine's row mappings. NULL maps to `undefined`; bigint columns arrive as
 * numbers from SQLite and PGlite and as strings from `pg`; booleans as 0/1 from SQLite and as booleans from
 * PostgreSQL. JSON stored as text is parsed here and nowhere else.
 */
import type { Json } from '../../../core/types.js';

export type BigIntish = number | string | bigint;
export type Boolish = boolean | number;

export const num = (v: BigIntish): number => (typeof v === 'number' ? v : Number(v));
export const bool = (v: Boolish): boolean => v === true || v === 1;
export const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
export const optJson = (v: string | null | undefined): Json | undefined => (v === null || v === undefined ? undefined : (JSON.parse(v) as Json));
export const toNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const jsonOrNull = (v: Json | undefined): string | null => (v === undefined ? null : JSON.stringify(v));
/** A JSON column that one engine returns as text and another already parsed (jsonb). */
export const parsed = <T>(v: string | T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
