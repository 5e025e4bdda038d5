import type { DbOrTx, Tx } from './client';

/**
 * Runs `fn` inside a transaction: the given one when `dbOrTx` already is a transaction (so services
 * compose into a caller's unit of work), else a new one.
 */
export async function inTransaction<T>(dbOrTx: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if ('rollback' in dbOrTx) return fn(dbOrTx as Tx);
  return dbOrTx.transaction(fn);
}
