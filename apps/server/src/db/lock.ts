import fs from 'node:fs';
import path from 'node:path';

/**
 * Exclusive ownership of an embedded PGlite data folder. PGlite is single-process: a second process
 * opening the same folder would corrupt it, so the first one writes `<dir>.lock` (O_EXCL) holding its
 * pid, and any later process refuses to start while that pid is alive. A lock left by a dead process
 * is taken over.
 * @returns a release function (idempotent).
 * @throws Error with a human-readable message when another live process owns the folder.
 */
export function acquireDataDirLock(dir: string): () => void {
  const lockPath = `${dir.replace(/[/\\]$/, '')}.lock`;
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The database folder ${dir} is in use by another Dewy process (pid ${owner}). ` +
            `Stop that process first, or set DATABASE_URL to use PostgreSQL for several processes.`,
          { cause: err },
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock from a crashed process
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

/** Whether process `pid` exists (signal 0; EPERM = alive, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
