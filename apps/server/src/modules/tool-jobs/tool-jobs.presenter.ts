import { and, desc, eq, ilike, isNull } from 'drizzle-orm';
import type { HistorySource, JobStatus } from '@dewy/contracts';
import type { AppContext, AppServices } from '../../context';
import { jobs, type JobRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { ToolDefinition, ToolHistoryFields, ToolJobsPage } from './tool-definition';

/**
 * The kernel's side of presentation (decision 035): which tool a row belongs to, one of the caller's
 * rows of a tool by its public id, and a page of the caller's rows. The shapes are the tools'
 * (`ToolDefinition.present`) and the generic presenters' (modules/jobs); the queries are here, once.
 */

/** The tool whose job a row is (by the row's job name); undefined for a row of no tool of this process. */
export function toolOfRow(app: Pick<AppServices, 'tools'>, row: Pick<JobRow, 'jobName'>): ToolDefinition | undefined {
  return app.tools.find((t) => t.jobName === row.jobName);
}

/** Whether a completed row delivered less than paid for, as its tool says (default: `meta.partial === true`). */
export function rowIsPartial(app: Pick<AppServices, 'tools'>, row: JobRow): boolean {
  if (row.status !== 'completed') return false;
  const partial = toolOfRow(app, row)?.present?.partial;
  if (partial) return partial(row);
  return row.meta !== null && typeof row.meta === 'object' && (row.meta as Record<string, unknown>).partial === true;
}

/** The tool's own fields of a history item (its vendor task id), null where the tool has none. */
export function rowHistoryFields(app: Pick<AppServices, 'tools'>, row: JobRow): Required<ToolHistoryFields> {
  const own = toolOfRow(app, row)?.present?.historyFields?.(row) ?? {};
  return { kling_task_id: own.kling_task_id ?? null, seedream_task_id: own.seedream_task_id ?? null };
}

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One of the caller's rows of `tool` by its public id: the tool's task id (`present.taskId`) or the
 * bare job id. Another user's job, another tool's, and an unknown or malformed id all answer the same.
 * @throws AppError NOT_FOUND
 */
export async function findToolJob(ctx: Pick<AppContext, 'database'>, tool: ToolDefinition, userId: number, id: string): Promise<JobRow> {
  const jobId = tool.present?.taskId?.jobIdOf(id) ?? id;
  if (!JOB_ID.test(jobId)) throw new AppError('NOT_FOUND');
  const row = (await ctx.database.db.select().from(jobs).where(and(eq(jobs.jobId, jobId), eq(jobs.userId, userId), eq(jobs.source, tool.source), isNull(jobs.deletedAt))))[0];
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** LIKE pattern of a literal search text (escapes %, _ and \). */
const likeLiteral = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the caller's job rows, newest first (creation time, then id): optionally one source, one
 * status, and only prompts containing `q` (case-insensitive, literal: `%` and `_` match themselves).
 * @param q.limit rows per page (≥ 1); q.offset rows skipped
 */
export async function toolJobsPage(
  ctx: Pick<AppContext, 'database'>,
  userId: number,
  q: { source?: HistorySource; status?: JobStatus; q?: string; limit: number; offset: number },
): Promise<ToolJobsPage> {
  const where = and(
    eq(jobs.userId, userId),
    isNull(jobs.deletedAt),
    q.source ? eq(jobs.source, q.source) : undefined,
    q.status ? eq(jobs.status, q.status) : undefined,
    q.q ? ilike(jobs.prompt, likeLiteral(q.q)) : undefined,
  );
  const rows = await ctx.database.db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(q.limit + 1).offset(q.offset);
  const hasMore = rows.length > q.limit;
  return { rows: rows.slice(0, q.limit), hasMore, nextOffset: hasMore ? q.offset + q.limit : null };
}
