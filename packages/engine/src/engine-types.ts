/** Regions a customer can exclude from retouch (spec 001 §3 upscale input: upper_lip … hair). */
export interface ExcludeOptions {
  upperLip: boolean;
  lowerLip: boolean;
  /** Subject's own left eyebrow (image right). */
  leftEyebrow: boolean;
  /** Subject's own right eyebrow (image left). */
  rightEyebrow: boolean;
  nose: boolean;
  hair: boolean;
}

/** One retouch + resize request; field meanings follow the spec's upscale input (001 §3, §5). */
export interface RetouchOptions {
  /** Model index 0..8 (`lora_index`), selects the retouch parameter set. */
  loraIndex: number;
  /** Output size factor, 0 < f ≤ 2; output = round(w·f) × round(h·f) pixels. */
  scaleFactor: number;
  /** 0 = studio (with prompt 'studio filter') or none; 1 = ppoyong (fair skin). */
  filterIndex: 0 | 1;
  /** 0..1; 0.01 with index 0 and empty prompt means no filter. */
  filterStrength: number;
  filterPrompt: string;
  exclude: ExcludeOptions;
  outputFormat: 'jpg' | 'png';
  /** JPEG quality 1..100 (ignored for PNG). */
  outputQuality: number;
  /** Accepted for API compatibility; the local engine is deterministic and does not use it. */
  seed: number;
  /** ONNX super-resolution model for f > 1 (default 'lsdir-compact-c3'). */
  srModel?: 'lsdir-compact-c3' | 'realesr-general-x4v3';
}

export interface RetouchResult {
  bytes: Buffer;
  format: 'jpg' | 'png';
  /** Output size in pixels. */
  width: number;
  height: number;
  meta: {
    /** Faces found and retouched. */
    faces: number;
    /** 'lsdir-compact-c3' | 'realesr-general-x4v3' | 'esrgan-slim' | 'lanczos3'. */
    srModel: string;
    /** True when the ONNX model file was missing and the esrgan-slim fallback ran. */
    fallback: boolean;
    /**
     * Hair mask used for the 'hair' exclusion: 'selfie' (person matte from the selfie segmentation model),
     * 'heuristic' (colour fallback when that model cannot load), 'none' (hair not excluded or no face).
     */
    hairMask: 'selfie' | 'heuristic' | 'none';
    /** Wall time per stage in ms: decode, faces, resize, masks, retouch, composite, encode, total. */
    timingsMs: Record<string, number>;
    /**
     * Per face (largest first), how well its landmark mesh fits and what was done with it: 'full'
     * retouch for a good fit, 'light' for a fair one (half strength, no lip tint or blush), 'none' for a
     * poor one (the face is left as it is; the photo-wide grade and filter still apply). `box` in output
     * pixels; `pass` says which detection pass produced the mesh; `rollDeg` its in-plane tilt.
     */
    faceFits?: FaceFitMeta[];
    /** Exclusion semantics of this result: excluded regions skip local retouch; grade and filter apply everywhere. */
    exclusions?: 'local-only';
    /**
     * The ONNX super-resolution pass, when one ran: the input it saw (always the full decoded photo), tiles,
     * input pixels the model ran on (overlap included), wall and summed model time (ms), FLOP per input pixel.
     */
    sr?: { inputWidth: number; inputHeight: number; tiles: number; modelPixels: number; ms: number; modelMs: number; modelCpuMs: number; taskCpuMs: number; flopPerPixel: number };
  };
}

/** One face's entry in {@link RetouchResult.meta.faceFits}. */
export interface FaceFitMeta {
  verdict: 'good' | 'fair' | 'poor';
  /** 0..1 fit score (good ≥ 0.6, fair ≥ 0.35). */
  score: number;
  retouch: 'full' | 'light' | 'none';
  pass: 'whole' | 'window' | 'rotated';
  rollDeg: number;
  box: { x: number; y: number; width: number; height: number };
}

/** Engine configuration shared by the in-thread call and the pool. */
export interface EngineConfig {
  /** Folder holding the ONNX files; default ./data/models (relative to the working directory). */
  modelsDir?: string;
  /** Tiling and threading of the ONNX super-resolution pass; every field defaults to the measured best (bench). */
  sr?: { tile?: number; overlap?: number; workers?: number; threadsPerWorker?: number; reduce?: 1 | 2 };
  /** Called with a stage name and its 0..1 completion. */
  onProgress?: (stage: string, fraction: number) => void;
}

/** One face edit (spec 001 §3 face-edit run input, without the image and mask; §5 face edit). */
export interface FaceEditOptions {
  /** Spec `seed` (an integer; the page sends 1..1,000,000). Same seed, same output. */
  seed: number;
  /** Spec `easy_value`, 0..1: how much of the fill replaces the photo (0 = unchanged). */
  strength: number;
  /** Spec `resize_factor`, rounded to 2 decimals, 0.1..4 (default 1 in the spec). */
  resizeFactor: number;
  /** Upload-rule target for width + height in pixels (default 3000, spec 001 §9). */
  maxSum?: number;
  /** 'jpg' (default, quality 92 like the page's own re-encode) or 'png' (lossless, for tests). */
  outputFormat?: 'jpg' | 'png';
}

/** What a face edit did, for logs and the bench. */
export interface FaceEditMeta {
  /** The working window in pixels of the work image: [x0, x1) × [y0, y1). */
  window: { x0: number; y0: number; x1: number; y1: number };
  /** Pixels repainted (the mask grown by the dilation). */
  holePixels: number;
  /** Pyramid levels used. */
  levels: number;
  /** Texture gain applied to the fill (1 = none). */
  grainGain: number;
  /** Size the fill ran at (the output size for factors ≤ 1, the upload-rule size above). */
  workWidth: number;
  workHeight: number;
  /** Wall time per stage in ms (decode, prepare, window, pyramid, levelN…, synthesis, blend, composite, inpaint, encode, total). */
  timingsMs: Record<string, number>;
}

export interface FaceEditResult {
  /** Encoded image: JPEG (quality 92) or PNG, no metadata. */
  buffer: Buffer;
  /** Output size in pixels (faceEditSize of the input size and factor). */
  width: number;
  height: number;
  mime: 'image/jpeg' | 'image/png';
  meta: FaceEditMeta;
}
