import path from 'node:path';
import { expect, test, type Route } from '@playwright/test';
import { FIXTURES, signUpAndLogInByApi, uniqueEmail } from './helpers';

/**
 * The page's side of the job event stream (GET /api/jobs/events, contracts/jobs.ts). The first test runs
 * a real job on the real server and engine; the others simulate the stream and the job in the browser
 * (routes) to pin the page's behaviour exactly (upload is real; no engine runs).
 */
test('with the real server: the comparison is settled by push when the job completes', async ({ page }, testInfo) => {
  const email = uniqueEmail('realpush');
  await signUpAndLogInByApi(page, email, 'password-1234');
  // The page's timers run on Playwright's clock (issue 22): stopped before the job starts, no status poll
  // can fire, so however long the engine takes on a busy machine, only the event can settle the job (a
  // poll landing between the completion and the event's handling used to settle it as 'poll').
  await page.clock.install();
  await page.goto('/upscale');
  const stage = page.getByTestId('upscale-stage');
  await expect(stage).toHaveAttribute('data-push', 'open', { timeout: 60_000 });
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'rose_leslie_577x880.jpg'));
  await expect(page.getByTestId('upscale-generate')).toBeEnabled({ timeout: 30_000 });
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(pageNow + 60_000);
  await page.getByTestId('upscale-generate').click();
  await expect(stage).toHaveAttribute('data-state', 'completed', { timeout: 150_000 });
  // Seen by the test (its expect polls at most every second): a figure to report, not a verdict.
  const shownAt = Date.now();
  await expect(stage).toHaveAttribute('data-settled-via', 'push');
  await expect(page.getByTestId('upscale-result-slider')).toBeVisible();
  await page.clock.resume();
  const me = (await (await page.request.get('/api/auth/check')).json()) as { user: { id: number } };
  const hist = (await (await page.request.get(`/api/image/history/${me.user.id}?source=upscale&limit=1`)).json()) as { images: { status: string; updated_at: string }[] };
  expect(hist.images[0]!.status).toBe('completed');
  const lagMs = shownAt - Date.parse(hist.images[0]!.updated_at);
  // The lag is a figure to report, not a verdict: on a saturated machine it is the scheduler's (issue 22).
  // What the user depends on is that the push settled it (above) rather than the next poll, seconds away.
  console.log(`[e2e] job completed → comparison on screen: ${lagMs} ms`);
  testInfo.annotations.push({ type: 'push-lag-ms', description: String(lagMs) });
});

test('progress events fill the bar and a completed event shows the result at once, before any poll', async ({ page }) => {
  const email = uniqueEmail('push');
  await signUpAndLogInByApi(page, email, 'password-1234');

  const jobId = `e2e-push-${Date.now()}`;
  const pending: string[] = [];
  let uploadedUrl = '';
  let completedDeliveredAt = 0;
  let completedSent = false;
  const statusCalls: string[] = [];

  // Each connection gets what is queued, then ends; `retry: 200` brings the browser back quickly.
  await page.route('**/api/jobs/events', async (route: Route) => {
    let body = 'retry: 200\n\n';
    for (const data of pending.splice(0)) {
      body += `event: job\ndata: ${data}\n\n`;
      if (data.includes('"completed"')) {
        completedSent = true;
        completedDeliveredAt = Date.now();
      }
    }
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }, body });
  });
  await page.route('**/api/runpod-upscale', (route) =>
    route.fulfill({ json: { success: true, jobId, imageId: 987654, status: 'processing', cost: 80, credits: 300 } }),
  );
  await page.route(`**/api/image/status/${jobId}`, (route) => {
    // The result exists only once the stream said so: a completion can only come from the push.
    statusCalls.push(completedSent ? 'completed' : 'processing');
    return route.fulfill({
      json: completedSent
        ? { status: 'completed', imageUrl: uploadedUrl, originalImageUrl: uploadedUrl, images: [uploadedUrl], error: null }
        : { status: 'processing', imageUrl: null, originalImageUrl: uploadedUrl, images: [], error: null },
    });
  });

  // The page's timers run on Playwright's clock, so that the test, not the machine's speed, decides when
  // a status poll may happen (issue 22): time flows normally until the job runs, then stands still.
  await page.clock.install();
  await page.goto('/upscale');
  const stage = page.getByTestId('upscale-stage');
  // (Each simulated connection ends after its batch, so data-push flips between open and connecting.)

  const uploaded = page.waitForResponse((r) => /\/api\/image\/(confirm-upload|upload-s3)$/.test(r.url()) && r.ok());
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'obama_910x1137.jpg'));
  uploadedUrl = ((await (await uploaded).json()) as { imageUrl: string }).imageUrl;
  await expect(page.getByTestId('upscale-generate')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('upscale-generate').click();

  // Only polling so far: an indeterminate bar.
  const progress = page.getByTestId('upscale-progress');
  await expect(progress).toHaveAttribute('data-mode', 'indeterminate');
  await expect(stage).toHaveAttribute('data-job-id', jobId);
  // Stop the page's clock: from here on no timer fires unless the test runs the clock. Pausing a minute
  // ahead of the page's time fires what was due by then once (the first poll, answered 'processing').
  const pageNow = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(pageNow + 60_000);
  await expect.poll(() => statusCalls.length, { timeout: 60_000 }).toBeGreaterThan(0);
  // The polling goes on by its schedule (2, 4, 8 s…): 10 s of page time bring the next poll.
  const polled = statusCalls.length;
  await page.clock.runFor(10_000);
  await expect.poll(() => statusCalls.length, { timeout: 60_000 }).toBeGreaterThan(polled);

  pending.push(JSON.stringify({ type: 'progress', jobId, source: 'upscale', stage: 'retouch', fraction: 0.42 }));
  await expect(progress).toHaveAttribute('data-mode', 'determinate');
  const bar = progress.getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuenow', '42');
  await expect(page.getByTestId('upscale-progress-stage')).toHaveText(/피부 보정 중/);
  await expect(page.getByTestId('upscale-progress-percent')).toHaveText('42%');

  // Push the completion while the page's clock stands still: no scheduled poll can fire, so only the
  // event can lead to the status read that settles the job (before, a poll landing between the push's
  // send and its handling on a busy machine settled it; issue 22).
  const pollsBeforePush = statusCalls.length;
  pending.push(JSON.stringify({ type: 'status', jobId, source: 'upscale', status: 'completed' }));
  // The status route answers 'completed' only after the event went out and the page settles on the first
  // answer it gets, so data-settled-via="push" is the verdict; the lag is logged, never a margin (issue 22).
  await expect(stage).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(stage).toHaveAttribute('data-settled-via', 'push');
  // Seen by the test (its expect polls at most every second; the page's own clock stands still).
  console.log(`[e2e] completed event delivered → comparison on screen: ≤ ${Date.now() - completedDeliveredAt} ms`);
  await expect(page.getByTestId('upscale-result-slider')).toBeVisible();
  // The status endpoint answered completed only after the event, while no poll could fire: the push (its
  // confirming read, or the read when the stream reopened) settled it.
  expect(statusCalls.slice(pollsBeforePush)).toContain('completed');
  await page.clock.resume();
});

test('a failed event fails the job at once with the try-again button', async ({ page }) => {
  const email = uniqueEmail('pushfail');
  await signUpAndLogInByApi(page, email, 'password-1234');
  const jobId = `e2e-pushfail-${Date.now()}`;
  const pending: string[] = [];
  await page.route('**/api/jobs/events', async (route) => {
    const body = `retry: 200\n\n${pending.splice(0).map((d) => `event: job\ndata: ${d}\n\n`).join('')}`;
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
  });
  await page.route('**/api/runpod-upscale', (route) => route.fulfill({ json: { success: true, jobId, imageId: 987655, status: 'processing', cost: 80, credits: 300 } }));
  await page.route(`**/api/image/status/${jobId}`, (route) => route.fulfill({ json: { status: 'processing', imageUrl: null, originalImageUrl: null, images: [], error: null } }));

  await page.goto('/en/upscale');
  await page.getByTestId('upscale-file-input').setInputFiles(path.join(FIXTURES, 'rose_leslie_577x880.jpg'));
  await expect(page.getByTestId('upscale-generate')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('upscale-generate').click();
  await expect(page.getByTestId('upscale-processing')).toBeVisible();
  pending.push(JSON.stringify({ type: 'status', jobId, source: 'upscale', status: 'failed' }));
  // The status route never answers 'failed' here: only the pushed event can fail the job. The event is
  // delivered when the browser next reconnects (retry: 200 ms), however busy the machine is.
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(page.getByTestId('upscale-stage')).toHaveAttribute('data-job-status', 'failed');
  await expect(page.getByTestId('upscale-retry')).toBeVisible();
});
