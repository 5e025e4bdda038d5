import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ComparisonSlider } from '../../../components/ui/comparison-slider';
import { useLocale } from '../../../lib/use-locale';
import { PlanTeaser } from './plan-teaser';
import { SAMPLE_IDS, SAMPLES, type SampleId } from './samples';
import './landing.css';

const FEATURES = ['skin', 'detail', 'control'] as const;

/** Landing page (/ and /en), spec 000 §2. */
export function LandingPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const [sample, setSample] = useState<SampleId>('korean_basic');
  const pair = SAMPLES[sample];

  return (
    <div className="landing" data-testid="landing-page">
      <section className="hero">
        <div className="container hero-grid">
          <div className="hero-copy">
            <span className="hero-eyebrow">{t('landing.eyebrow')}</span>
            <h1>{t('landing.title')}</h1>
            <p className="hero-lead">{t('landing.lead')}</p>
            <div className="hero-cta">
              <Link to={lp('/upscale')} className="btn btn-primary btn-lg" data-testid="landing-start">
                {t('landing.start')}
              </Link>
              <Link to={lp('/pricing')} className="btn btn-secondary btn-lg">
                {t('landing.seePricing')}
              </Link>
            </div>
            <ul className="hero-points">
              <li>{t('landing.point1')}</li>
              <li>{t('landing.point2')}</li>
              <li>{t('landing.point3')}</li>
            </ul>
          </div>
          <div className="hero-visual">
            <div className="hero-slider card">
              <ComparisonSlider
                leftImage={{ src: pair.before, alt: t('landing.sampleBeforeAlt', { name: t(`landing.samples.${sample}`) }), label: t('common.before') }}
                rightImage={{ src: pair.after, alt: t('landing.sampleAfterAlt', { name: t(`landing.samples.${sample}`) }), label: t('common.after') }}
                placeholder={<div className="hero-placeholder" />}
                testId="landing-slider"
              />
            </div>
            <div className="sample-picker" role="group" aria-label={t('landing.samplesLabel')}>
              {SAMPLE_IDS.map((id) => (
                <button
                  key={id}
                  type="button"
                  className={`sample-btn ${id === sample ? 'is-active' : ''}`}
                  aria-pressed={id === sample}
                  onClick={() => setSample(id)}
                  data-testid={`sample-${id}`}
                >
                  <img src={SAMPLES[id].after} alt="" aria-hidden="true" />
                  <span>{t(`landing.samples.${id}`)}</span>
                </button>
              ))}
            </div>
            <p className="sample-caption" data-testid="sample-caption">
              {t('landing.illustrationCaption')}
            </p>
          </div>
        </div>
      </section>

      <section className="container teaser" aria-labelledby="teaser-title">
        <h2 id="teaser-title">{t('landing.teaser.title')}</h2>
        <p className="teaser-lead">{t('landing.teaser.lead')}</p>
        <div className="feature-grid">
          {FEATURES.map((f) => (
            <div key={f} className="feature card">
              <h3>{t(`landing.features.${f}.title`)}</h3>
              <p>{t(`landing.features.${f}.body`)}</p>
            </div>
          ))}
        </div>
        <div className="teaser-cta">
          <Link to={lp('/upscale')} className="btn btn-primary" data-testid="teaser-start">
            {t('landing.teaser.cta')}
          </Link>
        </div>
      </section>

      <PlanTeaser />
    </div>
  );
}
