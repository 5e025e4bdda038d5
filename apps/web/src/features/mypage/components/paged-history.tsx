import type { ReactNode } from 'react';

/** What a "load more" history query gives the list (TanStack Query's infinite query). */
export interface PagedHistoryQuery {
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  refetch(): unknown;
  fetchNextPage(): unknown;
}

/**
 * The states every paged history of My Page goes through (the credit history, the billing history):
 * loading, failed with nothing shown (retry), empty, or the list (`children`) followed by "load more"
 * while the server has another page and a failure note when a later page failed.
 * `testId` prefixes the states' test ids (`<testId>-error`, `-empty`, `-more`); `text` gives the words
 * in the page's language.
 */
export function PagedHistory(props: {
  query: PagedHistoryQuery;
  count: number;
  testId: string;
  text: { failed: string; retry: string; empty: string; loadMore: string; loadingMore: string };
  /** Whether a later page's failure is noted under the list (the first page's is the retry state). */
  noteLaterFailure?: boolean;
  children: ReactNode;
}) {
  const { query, count, testId, text } = props;
  if (query.isPending) {
    return (
      <div className="mypage-history-state" aria-busy="true">
        <div className="spinner" />
      </div>
    );
  }
  if (query.isError && count === 0) {
    return (
      <div className="mypage-history-state" role="alert" data-testid={`${testId}-error`}>
        <p>{text.failed}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void query.refetch()}>
          {text.retry}
        </button>
      </div>
    );
  }
  if (count === 0) {
    return (
      <p className="mypage-history-state" data-testid={`${testId}-empty`}>
        {text.empty}
      </p>
    );
  }
  return (
    <>
      {props.children}
      {query.hasNextPage ? (
        <div className="mypage-more">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            aria-busy={query.isFetchingNextPage}
            data-testid={`${testId}-more`}
          >
            {query.isFetchingNextPage ? text.loadingMore : text.loadMore}
          </button>
        </div>
      ) : null}
      {props.noteLaterFailure && query.isError ? (
        <p className="mypage-field-error" role="alert" data-testid={`${testId}-error`}>
          {text.failed}
        </p>
      ) : null}
    </>
  );
}
