import type { CompanyInfo, Locale } from '@dewy/contracts';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { formatSeoulDate } from '../../../lib/format';
import { useSiteInfo } from '../../../lib/site-info';
import { useLocale } from '../../../lib/use-locale';
import { legalDocument, type LegalBlock, type LegalDocId } from '../content';
import { legalRoute, legalSwitchPath } from '../lib/legal-path';
import { COMPANY_NAME_FALLBACK, namesUnsetDetail, splitLegalText } from '../lib/legal-text';
import './legal.css';

const DOC_IDS: LegalDocId[] = ['terms', 'privacy', 'refund'];

type T = (key: string, opts?: Record<string, unknown>) => string;

interface Fill {
  company: CompanyInfo;
  supportEmail: string;
  t: T;
}

/**
 * A legal text with its tokens filled in (support e-mail as a link, the operator's details; the
 * service's name stands in for an unset company name). Texts naming another unset detail are left out
 * by their block ({@link namesUnsetDetail}).
 */
function Text({ text, fill }: { text: string; fill: Fill }) {
  return (
    <>
      {splitLegalText(text).map((piece, i) => {
        if ('text' in piece) return <Fragment key={i}>{piece.text}</Fragment>;
        if (piece.token === 'supportEmail') return <a key={i} href={`mailto:${fill.supportEmail}`}>{fill.supportEmail}</a>;
        if (piece.token === 'companyName') return <Fragment key={i}>{fill.company.name ?? COMPANY_NAME_FALLBACK}</Fragment>;
        return <Fragment key={i}>{fill.company.ceo}</Fragment>;
      })}
    </>
  );
}

/** The operator's business details (Korean e-commerce law): those the operator has set, and the support e-mail. */
function CompanyDetails({ fill }: { fill: Fill }) {
  const { company, t } = fill;
  const set: [string, string | null][] = [
    [t('legal.company.name'), company.name],
    [t('legal.company.ceo'), company.ceo],
    [t('legal.company.address'), company.address],
    [t('legal.company.registrationNo'), company.registrationNo],
    [t('legal.company.mailOrderNo'), company.mailOrderNo],
  ];
  const rows: [string, ReactNode][] = [
    ...set.filter((r): r is [string, string] => Boolean(r[1])),
    [t('legal.company.email'), <a href={`mailto:${fill.supportEmail}`}>{fill.supportEmail}</a>],
  ];
  return (
    <dl className="legal-company" data-testid="legal-company">
      {rows.map(([label, value]) => (
        <div key={label} className="legal-company-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Block({ block, fill }: { block: LegalBlock; fill: Fill }) {
  switch (block.kind) {
    case 'p':
      if (namesUnsetDetail(block.text, fill.company)) return null;
      return (
        <p>
          <Text text={block.text} fill={fill} />
        </p>
      );
    case 'list': {
      const items = block.items.map((item, i) =>
        namesUnsetDetail(item, fill.company) ? null : (
          <li key={i}>
            <Text text={item} fill={fill} />
          </li>
        ),
      );
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table':
      return (
        <div className="legal-table-wrap">
          <table className="legal-table">
            <thead>
              <tr>
                {block.head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} data-label={block.head[c]}>
                      <Text text={cell} fill={fill} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'company':
      return <CompanyDetails fill={fill} />;
  }
}

/**
 * The terms, privacy and refund pages (spec 002 §2): the path decides the document and its language
 * (`/terms/en` is English even in a Korean session); the KR/EN switch goes to the matching `/…/kr` or
 * `/…/en` path. The page's own labels follow the document's language; the header and footer stay in
 * the site's. Company details come from GET /api/site-info.
 */
export function LegalPage() {
  const { pathname } = useLocation();
  const { locale: siteLocale } = useLocale();
  const route = legalRoute(pathname, siteLocale) ?? { doc: 'terms' as const, locale: siteLocale };
  const docLocale: Locale = route.locale;
  const { t } = useTranslation(undefined, { lng: docLocale });
  const { company, supportEmail } = useSiteInfo();
  const doc = legalDocument(route.doc, docLocale);
  const fill: Fill = { company, supportEmail, t };
  const updated = formatSeoulDate(`${doc.lastUpdated}T00:00:00+09:00`, docLocale);
  // The contents list starts open beside the text on wide screens, folded above it on narrow ones.
  const [tocOpen] = useState(() => window.matchMedia('(min-width: 901px)').matches);

  return (
    <div className="container page legal-page" data-testid="legal-page" data-doc={route.doc} data-locale={docLocale}>
      <article lang={docLocale} className="legal-article">
        <header className="legal-head">
          <div className="legal-head-row">
            <h1 data-testid="legal-title">{doc.title}</h1>
            <nav className="legal-switch" aria-label={t('legal.switchLabel')} data-testid="legal-switch">
              {(['ko', 'en'] as const).map((l) => (
                <Link
                  key={l}
                  to={legalSwitchPath(route.doc, l)}
                  className={l === docLocale ? 'is-active' : undefined}
                  aria-current={l === docLocale ? 'page' : undefined}
                  lang={l}
                  aria-label={l === 'ko' ? '한국어' : 'English'}
                  data-testid={`legal-switch-${l === 'ko' ? 'kr' : 'en'}`}
                >
                  {l === 'ko' ? 'KR' : 'EN'}
                </Link>
              ))}
            </nav>
          </div>
          <p className="legal-updated" data-testid="legal-updated">
            {t('legal.lastUpdated', { date: updated })} · {t('legal.timezone')}
          </p>
          <p className="legal-summary">
            <Text text={doc.summary} fill={fill} />
          </p>
        </header>

        <div className="legal-layout">
          <nav className="legal-toc" aria-label={t('legal.toc')}>
            <details open={tocOpen}>
              <summary>{t('legal.toc')}</summary>
              <ol>
                {doc.sections.map((s) => (
                  <li key={s.id}>
                    <a href={`#${s.id}`}>{s.heading}</a>
                  </li>
                ))}
              </ol>
            </details>
          </nav>
          <div className="legal-body">
            {doc.sections.map((s) => (
              <section key={s.id} id={s.id} className="legal-section" aria-labelledby={`${s.id}-h`}>
                <h2 id={`${s.id}-h`}>{s.heading}</h2>
                {s.blocks.map((b, i) => (
                  <Block key={i} block={b} fill={fill} />
                ))}
              </section>
            ))}
            <nav className="legal-other" aria-label={t('legal.otherDocs')}>
              <h2>{t('legal.otherDocs')}</h2>
              <ul>
                {DOC_IDS.filter((d) => d !== route.doc).map((d) => (
                  <li key={d}>
                    <Link to={legalSwitchPath(d, docLocale)}>{t(`legal.docs.${d}`)}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </div>
      </article>
    </div>
  );
}
