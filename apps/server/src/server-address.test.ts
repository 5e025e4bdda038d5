import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearServerAddress, localUrl, operatorApiBase, readServerAddress, writeServerAddress } from './server-address';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-addr-'));

describe('the running server recorded in DATA_DIR (issue 28, point 13)', () => {
  it('round-trips, ignores a record whose process is gone or that is unreadable, and clears only its own', () => {
    const dir = tmp();
    expect(readServerAddress(dir)).toBeNull();
    writeServerAddress(dir, 'http://127.0.0.1:5123');
    expect(readServerAddress(dir)).toMatchObject({ url: 'http://127.0.0.1:5123', pid: process.pid });
    expect(readServerAddress(dir, () => false)).toBeNull();
    clearServerAddress(dir, process.pid + 1);
    expect(readServerAddress(dir)).not.toBeNull();
    clearServerAddress(dir);
    expect(readServerAddress(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'server.json'), '{"url": "javascript:alert(1)", "pid": 1}');
    expect(readServerAddress(dir, () => true)).toBeNull();
    fs.writeFileSync(path.join(dir, 'server.json'), 'not json');
    expect(readServerAddress(dir, () => true)).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('picks BILLING_API_URL, then the recorded server, then PORT', () => {
    const dir = tmp();
    expect(operatorApiBase({}, dir, 5000)).toEqual({ url: 'http://127.0.0.1:5000', source: 'PORT' });
    writeServerAddress(dir, 'http://127.0.0.1:6001');
    expect(operatorApiBase({}, dir, 5000)).toEqual({ url: 'http://127.0.0.1:6001', source: 'DATA_DIR' });
    expect(operatorApiBase({ BILLING_API_URL: 'http://10.0.0.2:7000/' }, dir, 5000)).toEqual({ url: 'http://10.0.0.2:7000', source: 'BILLING_API_URL' });
    expect(localUrl('0.0.0.0', 80)).toBe('http://127.0.0.1:80');
    expect(localUrl('::1', 81)).toBe('http://[::1]:81');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('npm run billing finds a server started on another port', () => {
  let server: http.Server, seen: Array<{ url?: string; auth?: string }>, dir: string;
  beforeAll(async () => {
    seen = [];
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dir = tmp();
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the billing command with DATA_DIR=dir and PORT=1 (nothing listens there). */
  function billing(args: string[]): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'billing-cli.ts'), ...args], {
        env: { ...process.env, DATA_DIR: dir, PORT: '1', NODE_ENV: 'test', BILLING_API_URL: '', LOG_LEVEL: 'silent' },
        cwd: path.join(import.meta.dirname, '..'),
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
  }

  it('without a record it says which variables decide the address, and exits 1', async () => {
    const r = await billing(['status', 'someone@example.com']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/cannot reach the server at http:\/\/127\.0\.0\.1:1 .*DATA_DIR=.*BILLING_API_URL/);
    expect(seen).toHaveLength(0);
  });

  it('with the record the server wrote, it calls that server with the operator token', async () => {
    writeServerAddress(dir, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const r = await billing(['status', 'someone@example.com']);
    expect(r.out).toContain('{"ok":true}');
    expect(r.code).toBe(0);
    expect(seen).toEqual([{ url: '/api/admin/billing/sandbox', auth: expect.stringMatching(/^Bearer \S+/) }]);
  });
});
