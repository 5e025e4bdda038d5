import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { appSettings } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/**
 * Run-time settings an administrator changes without a restart (issue 13): the maintenance switch and
 * the banned keywords. Stored in `app_settings` (so every API process sees them); each process caches a
 * value for CACHE_MS, so a change is in force everywhere within that time.
 */
const CACHE_MS = 3000;
const cache = new Map<string, { value: unknown; at: number }>();

/** The default banned keywords (the page's own fallback list has 5 words, 002 §5). */
export const DEFAULT_BANNED_KEYWORDS = ['nude', 'naked', 'nsfw', 'porn', 'sex'];

async function read<T>(ctx: Pick<AppContext, 'database'>, key: string, fallback: T): Promise<T> {
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value as T;
  const row = (await ctx.database.db.select().from(appSettings).where(eq(appSettings.key, key)))[0];
  const value = (row?.value as T | undefined) ?? fallback;
  cache.set(key, { value, at: Date.now() });
  return value;
}

async function write(ctx: Pick<AppContext, 'database'>, key: string, value: unknown): Promise<void> {
  await ctx.database.db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
  cache.set(key, { value, at: Date.now() });
}

export interface MaintenanceState {
  on: boolean;
  /** Where it comes from: the MAINTENANCE_MODE environment variable, or the administrator's switch. */
  source: 'env' | 'admin' | null;
  since: string | null;
}

/** Whether maintenance is on: MAINTENANCE_MODE=true, or the administrator's switch. */
export async function maintenanceState(ctx: Pick<AppContext, 'database' | 'config'>): Promise<MaintenanceState> {
  if (ctx.config.maintenanceMode) return { on: true, source: 'env', since: null };
  const s = await read<{ on: boolean; since: string | null }>(ctx, 'maintenance', { on: false, since: null });
  return { on: s.on, source: s.on ? 'admin' : null, since: s.since };
}

/** Turns the administrator's maintenance switch on or off. */
export async function setMaintenance(ctx: Pick<AppContext, 'database' | 'config'>, on: boolean): Promise<MaintenanceState> {
  await write(ctx, 'maintenance', { on, since: on ? new Date().toISOString() : null });
  return maintenanceState(ctx);
}

/**
 * Refuses a tool's write call while maintenance is on (001 §8: 503 MAINTENANCE, the spec's message);
 * reads keep working and running jobs finish. @throws AppError MAINTENANCE
 */
export async function assertNotInMaintenance(ctx: Pick<AppContext, 'database' | 'config'>): Promise<void> {
  if ((await maintenanceState(ctx)).on) throw new AppError('MAINTENANCE');
}

/** The banned keywords (lower-cased, unique). */
export async function bannedKeywords(ctx: Pick<AppContext, 'database'>): Promise<string[]> {
  return read(ctx, 'banned_keywords', DEFAULT_BANNED_KEYWORDS);
}

/** Replaces the banned keywords (trimmed, lower-cased, de-duplicated, empty entries dropped). */
export async function setBannedKeywords(ctx: Pick<AppContext, 'database'>, keywords: string[]): Promise<string[]> {
  const clean = [...new Set(keywords.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  await write(ctx, 'banned_keywords', clean);
  return clean;
}

/** Forgets cached values (tests that flip settings directly in the database). */
export function clearSettingsCache(): void {
  cache.clear();
}
