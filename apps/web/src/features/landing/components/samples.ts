import foreignerManAfter from '../../../assets/samples/foreigner-man-after.svg';
import foreignerManBefore from '../../../assets/samples/foreigner-man-before.svg';
import koreanBasicAfter from '../../../assets/samples/korean-basic-after.svg';
import koreanBasicBefore from '../../../assets/samples/korean-basic-before.svg';
import koreanMakeupAfter from '../../../assets/samples/korean-makeup-after.svg';
import koreanMakeupBefore from '../../../assets/samples/korean-makeup-before.svg';
import westernGirlMakeupAfter from '../../../assets/samples/western-girl-makeup-after.svg';
import westernGirlMakeupBefore from '../../../assets/samples/western-girl-makeup-before.svg';

/** The four landing samples of spec 000 §2; the images are original illustrations, not photos. */
export const SAMPLE_IDS = ['korean_basic', 'korean_makeup', 'foreigner_man', 'western_girl_makeup'] as const;
export type SampleId = (typeof SAMPLE_IDS)[number];

export const SAMPLES: Record<SampleId, { before: string; after: string }> = {
  korean_basic: { before: koreanBasicBefore, after: koreanBasicAfter },
  korean_makeup: { before: koreanMakeupBefore, after: koreanMakeupAfter },
  foreigner_man: { before: foreignerManBefore, after: foreignerManAfter },
  western_girl_makeup: { before: westernGirlMakeupBefore, after: westernGirlMakeupAfter },
};
