import { BATCH_LIMITS, type BatchResponse } from '@dewy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useBatchTranslation } from '../lib/i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLocale } from '../../../lib/use-locale';
import { batchKey } from '../api/batches';
import { BatchCompose } from './batch-compose';
import { BatchRun } from './batch-run';
import './batch.css';

/**
 * Batch retouch (/upscale/batch, /en/upscale/batch; issue 24, decision 040 §4): up to 50 photos with one
 * set of options. Without `?id=` the page composes a new batch (BatchCompose); with it, it shows that
 * batch live (BatchRun), which is also where a started batch lands, and what My Page links to.
 */
export function BatchPage() {
  const { t } = useBatchTranslation();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = params.get('id');

  const started = (res: BatchResponse) => {
    queryClient.setQueryData(batchKey(res.batch.id), res);
    void navigate(`${lp('/upscale/batch')}?id=${encodeURIComponent(res.batch.id)}`, { replace: true });
  };

  return (
    <div className="container page batch-page" data-testid="batch-page" data-mode={id ? 'run' : 'compose'}>
      <div className="batch-head">
        <div>
          <h1>{t('batch.title')}</h1>
          <p className="batch-sub">{t('batch.subtitle', { max: BATCH_LIMITS.maxPhotos })}</p>
        </div>
        <Link className="btn btn-secondary btn-sm" to={lp('/upscale')} data-testid="batch-single-link">
          {t('batch.singleLink')}
        </Link>
      </div>
      {id ? <BatchRun key={id} id={id} /> : <BatchCompose onStarted={started} />}
    </div>
  );
}
