/**
 * modules/batches — batch retouch on the page (issue 24, decision 040 §4): a batch is a caller of the
 * tools' kernel (one job per photo under one batch id, charged one by one), with pause, resume, retry
 * and one zip of the results streamed from storage. This index is its public face (decision 039).
 */
export { batchesRoutes } from './batches.routes';
