// One build at a time across processes (test files run in parallel, each may find a build stale):
// a lock folder made with mkdir, which only one caller can create. A lock older than two minutes is
// left over from a killed build and is taken over.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';

/**
 * Runs `fn` holding the lock folder `lock`, polling every `pollMs` while another process holds it.
 * @template T
 * @param {string} lock
 * @param {number} pollMs
 * @param {() => T | Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withBuildLock(lock, pollMs, fn) {
  for (let waited = 0; ; waited += pollMs) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000 || (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
