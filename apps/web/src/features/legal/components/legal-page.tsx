import type { CompanyInfo, Locale } from '@dewy/contracts';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { formatSeoulDate } from '../../../lib/format';
import { useSiteInfo } from '../../../lib/site-info';
import { useLocale } from '../../../lib/use-locale';
import { legalDocument, type LegalBlock, type LegalDocId } from '../content';
import { legalRoute, legalSwitchPath } from '../lib/legal-path';
import { splitLegalText } from '../lib/legal-text';
import './legal.css';

const DOC_IDS: LegalDocId[] = ['terms', 'privacy', 'refund'];

type T = (key: string, opts?: Record<string, unknown>) => string;

interface Fill {
  company: CompanyInfo;
  supportEmail: string;
  t: T;
}

/** A value the operator configures, or the "to be filled in" mark when it is unset. */
function Configured({ value, t }: { value: string | null; t: T }) {
  return value ? <>{value}</> : <span className="legal-unset" data-testid="legal-unset">{t('legal.company.unset')}</span>;
}

/** A legal text with its tokens filled in (support e-mail as a link, the operator's details). */
function Text({ text, fill }: { text: string; fill: Fill }) {
  return (
    <>
      {splitLegalText(text).map((piece, i) => {
        if ('text' in piece) return <Fragment key={i}>{piece.text}</Fragment>;
        if (piece.token === 'supportEmail') return <a key={i} href={`mailto:${fill.supportEmail}`}>{fill.supportEmail}</a>;
        if (piece.token === 'companyName') return <Configured key={i} value={fill.company.name} t={fill.t} />;
        return <Configured key={i} value={fill.company.ceo} t={fill.t} />;
      })}
    </>
  );
}

/** The operator's business details (Korean e-commerce law), each marked where still unset. */
function CompanyDetails({ fill }: { fill: Fill }) {
  const { company, t } = fill;
  const rows: [string, ReactNode][] = [
    [t('legal.company.name'), <Configured value={company.name} t={t} />],
    [t('legal.company.ceo'), <Configured value={company.ceo} t={t} />],
    [t('legal.company.address'), <Configured value={company.address} t={t} />],
    [t('legal.company.registrationNo'), <Configured value={company.registrationNo} t={t} />],
    [t('legal.company.mailOrderNo'), <Configured value={company.mailOrderNo} t={t} />],
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
      return (
        <p>
          <Text text={block.text} fill={fill} />
        </p>
      );
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <Text text={item} fill={fill} />
        </li>
      ));
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
