/**
 * The baseline of `npm run bench:api`: a bare Fastify 5 (no plugins, no hooks, no logger) that answers
 * `GET /api/auth/check` with a fixed JSON body of the same shape and size as Dewy's signed-in answer.
 * It measures what this machine's Node + HTTP stack can do; Dewy's figure is judged against it.
 * Listens on 127.0.0.1:$PORT and prints `LISTENING <port>` once ready. Run with `node --import tsx`.
 */
import Fastify from 'fastify';

const body = {
  isAuthenticated: true,
  user: {
    id: 1,
    email: 'bench@example.com',
    nickname: 'Bench',
    plan: 'free',
    credits: 300,
    balance: 300,
    one_time_credits: 300,
    subscription_credits: 0,
    bonus_credits: 0,
    credit_debt: 0,
    cancelled_at: null,
    subscription_end_date: null,
    next_renewal_date: null,
    subscriptionId: null,
    isAdmin: true,
  },
};

const app = Fastify({ logger: false });
app.get('/api/auth/check', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`LISTENING ${(app.server.address() as { port: number }).port}`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
