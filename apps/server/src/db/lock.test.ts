import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock } from './lock';
import { openDatabase } from './client';

describe('PGlite data folder lock', () => {
  it('a second process on the same folder refuses to start with a clear message; a stale lock is taken over', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-lock-')), 'db');
    const other = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(`${dir}.lock`, String(other.pid));
      await expect(openDatabase({ kind: 'pglite', dir })).rejects.toThrow(/in use by another Dewy process \(pid \d+\)/);
    } finally {
      other.kill();
    }
    await new Promise((r) => other.once('exit', r));
    // the owner is gone: its lock is stale and is taken over
    const db = await openDatabase({ kind: 'pglite', dir });
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await db.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses a second owner in the same process until released', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-lock-')), 'db');
    const release = acquireDataDirLock(dir);
    fs.writeFileSync(`${dir}.lock`, String(process.ppid)); // pretend the parent owns it
    expect(() => acquireDataDirLock(dir)).toThrow(/in use/);
    fs.writeFileSync(`${dir}.lock`, String(process.pid));
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});
