import { z } from 'zod';

/**
 * Payload of every paid tool job: the id of its job row (`jobs.id`). Everything else (the
 * input, the cost, the owner) is read from that row, so a payload can never disagree with what was
 * charged.
 */
export const ToolJobPayloadSchema = z.object({ imageId: z.number().int().positive() });
export type ToolJobPayload = z.infer<typeof ToolJobPayloadSchema>;

/**
 * The typed job map [Immich `JobOf<T>`]: every queue job name the application knows → its payload.
 * `enqueue` accepts only these names with these payloads. A tool's job name must be listed here; the
 * worker refuses to start when a name has no handler (see `createJobQueue`). Tests add names by
 * module augmentation (`declare module '…/jobs/job-map' { interface JobMap { … } }`).
 */
export interface JobMap {
  /** Retouch + super-resolution (the main job, history source 'upscale'). */
  upscale: ToolJobPayload;
  /** Face edit: inpainting of a masked region (history source 'face_edit'). */
  'face-edit': ToolJobPayload;
  /** Image generation on Kling (history source 'kling', issue 16). */
  'kling-generation': ToolJobPayload;
  /** Image edit on Seedream (history source 'seedream', decision 023). */
  'image-edit': ToolJobPayload;
  /** Hourly (pg-boss schedule): delete content 30 days after processing (002 §9, issue 13). */
  'retention-purge': Record<string, never>;
  /** Hourly (pg-boss schedule): delete for good the accounts whose 14-day grace has passed (002 §9, issue 14). */
  'account-purge': Record<string, never>;
  /** Hourly (pg-boss schedule): renewal reminders 7, 3 and 1 day before each renewal (terms §7, decision 027). */
  'renewal-reminders': Record<string, never>;
  /** Daily (pg-boss schedule): dormancy notices and dormant accounts (terms §14, decision 027). */
  'dormant-accounts': Record<string, never>;
}

export type JobName = keyof JobMap & string;

/**
 * Payload schema of each declared job name, for the queue to validate what it sends and receives.
 * Partial in type only because tests declare extra names; at run time the queue knows exactly the
 * names it was given.
 */
export type JobSchemas = { [N in JobName]?: z.ZodType<JobMap[N]> };

/** The job names declared in production, with their payload schemas. */
export const JOB_SCHEMAS = {
  upscale: ToolJobPayloadSchema,
  'face-edit': ToolJobPayloadSchema,
  'kling-generation': ToolJobPayloadSchema,
  'image-edit': ToolJobPayloadSchema,
  'retention-purge': z.object({}).strict() as z.ZodType<Record<string, never>>,
  'account-purge': z.object({}).strict() as z.ZodType<Record<string, never>>,
  'renewal-reminders': z.object({}).strict() as z.ZodType<Record<string, never>>,
  'dormant-accounts': z.object({}).strict() as z.ZodType<Record<string, never>>,
} satisfies JobSchemas;

/** System jobs on a schedule (cron, UTC): name → cron. */
export const SCHEDULES: { name: JobName; cron: string }[] = [
  { name: 'retention-purge', cron: '23 * * * *' },
  { name: 'account-purge', cron: '41 * * * *' },
  { name: 'renewal-reminders', cron: '7 * * * *' },
  { name: 'dormant-accounts', cron: '53 1 * * *' },
];
