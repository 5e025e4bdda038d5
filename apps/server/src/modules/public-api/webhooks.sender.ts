import type { AppContext } from '../../context';
import type { JobRow } from '../../db/schema';
import { presentJob } from './public-api.routes';
import { deliverDueWebhooks } from './webhooks.delivery';

/**
 * Sends the due webhook messages of {@link deliverDueWebhooks} with the job as `/v1` presents it.
 * @param opts.now the clock (tests make a retry due by moving it)
 * @returns how many messages were attempted
 */
export function sendDueWebhooks(ctx: AppContext, opts: { now?: Date; limit?: number } = {}): Promise<number> {
  return deliverDueWebhooks(ctx, (row: JobRow) => presentJob(ctx, ctx.tools, row), opts);
}

/**
 * The webhook sender of one process (housekeeping): every `config.webhooks.pollMs` it sends what is due,
 * never two rounds at once; a round that attempted a full batch runs again at once. Every process may run
 * it: a message is leased by one sender at a time.
 * @returns a stop function
 */
export function startWebhookSender(ctx: AppContext): () => void {
  const log = ctx.log.child({ task: 'webhooks' });
  let running = false;
  const limit = 20;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      while ((await sendDueWebhooks(ctx, { limit })) === limit) {
        /* a full batch: more may be due */
      }
    } catch (err) {
      log.error({ err }, 'webhook round failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), ctx.config.webhooks.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
