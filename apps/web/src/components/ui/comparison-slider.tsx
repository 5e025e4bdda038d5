/**
 * Before/after comparison slider of spec 000 §1: left and right images with labels, a divider from 0 to
 * 1 (mouse/touch drag, keyboard arrows, optional hover mode), configurable handle and line, a container
 * aspect ratio that follows the taller or shorter image, hidden until both images have loaded. An optional
 * `view` zooms and moves both images alike (the full-screen comparison's zoom) while the divider, its
 * handle and the labels stay where they are in the frame.
 */
import { useCallback, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import './comparison-slider.css';

export interface ComparisonImage {
  src: string;
  alt: string;
  label?: string;
}

/**
 * A zoom of both images: `scale` (1 = the frame's fit) about the frame's top-left corner, then the
 * image's top-left corner moved to `x`, `y` (fractions of the frame's width and height; 0, 0 at fit).
 */
export interface ComparisonView {
  scale: number;
  x: number;
  y: number;
}

export interface ComparisonSliderProps {
  leftImage: ComparisonImage;
  rightImage: ComparisonImage;
  /** Starting divider position as a fraction of the container (0..1). */
  initialPosition?: number;
  orientation?: 'horizontal' | 'vertical';
  /** The divider follows the pointer without pressing and stops when the pointer leaves. */
  hover?: boolean;
  /** Handle diameter (px). */
  handleSize?: number;
  /** Divider line width (px). */
  lineWidth?: number;
  lineColor?: string;
  /** The container follows the taller or the shorter of the two images' aspect ratios. */
  aspect?: 'taller' | 'shorter';
  /** Shown until both images have loaded. */
  placeholder?: ReactNode;
  className?: string;
  testId?: string;
  onPositionChange?: (position: number) => void;
  /**
   * Both images drawn zoomed and moved alike (each image carries the same CSS transform, so the divider
   * compares the same pixels); the divider stays in frame coordinates. Without it no transform is set.
   */
  view?: ComparisonView;
}

const KEY_STEP = 0.05;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

interface Size {
  w: number;
  h: number;
}

export function ComparisonSlider({
  leftImage,
  rightImage,
  initialPosition = 0.5,
  orientation = 'horizontal',
  hover = false,
  handleSize = 40,
  lineWidth = 2,
  lineColor = 'white',
  aspect = 'taller',
  placeholder,
  className,
  testId = 'comparison-slider',
  onPositionChange,
  view,
}: ComparisonSliderProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(() => clamp01(initialPosition));
  const [dragging, setDragging] = useState(false);
  const [sizes, setSizes] = useState<{ left: Size | null; right: Size | null; key: string }>({ left: null, right: null, key: '' });
  const vertical = orientation === 'vertical';
  const pairKey = `${leftImage.src}|${rightImage.src}`;
  const current = sizes.key === pairKey ? sizes : { left: null, right: null, key: pairKey };
  const loaded = current.left !== null && current.right !== null;

  const onImageLoad = useCallback(
    (side: 'left' | 'right', img: HTMLImageElement | null) => {
      if (!img || !img.complete || img.naturalWidth === 0) return;
      const size = { w: img.naturalWidth, h: img.naturalHeight };
      setSizes((prev) => {
        const base = prev.key === pairKey ? prev : { left: null, right: null, key: pairKey };
        const old = base[side];
        if (old && old.w === size.w && old.h === size.h) return base;
        return { ...base, [side]: size };
      });
    },
    [pairKey],
  );

  const move = useCallback(
    (clientX: number, clientY: number) => {
      const el = containerRef.current;
      if (!el) return;
      const rect = el.getBoundingClientRect();
      const next = vertical ? (clientY - rect.top) / rect.height : (clientX - rect.left) / rect.width;
      const value = clamp01(next);
      setPosition(value);
      onPositionChange?.(value);
    },
    [vertical, onPositionChange],
  );

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (hover && e.pointerType === 'mouse') return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
    move(e.clientX, e.clientY);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging || (hover && e.pointerType === 'mouse')) move(e.clientX, e.clientY);
  };
  const endDrag = () => setDragging(false);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const dec = vertical ? 'ArrowUp' : 'ArrowLeft';
    const inc = vertical ? 'ArrowDown' : 'ArrowRight';
    let next: number | null = null;
    if (e.key === dec) next = position - KEY_STEP;
    else if (e.key === inc) next = position + KEY_STEP;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = 1;
    if (next === null) return;
    e.preventDefault();
    const value = clamp01(next);
    setPosition(value);
    onPositionChange?.(value);
  };

  // Aspect ratio (height / width) from the taller or the shorter image.
  let ratio = 1;
  if (current.left && current.right) {
    const a = current.left.h / current.left.w;
    const b = current.right.h / current.right.w;
    ratio = aspect === 'taller' ? Math.max(a, b) : Math.min(a, b);
  }

  // The divider stays inside the container, allowing for half the line width.
  const pct = position * 100;
  const linePos = `clamp(${lineWidth / 2}px, ${pct}%, calc(100% - ${lineWidth / 2}px))`;
  // The left image's clip is in its own (untransformed) coordinates: under a view, the divider at frame
  // fraction p crosses the image at (p - offset) / scale.
  const local = view ? clamp01((position - (vertical ? view.y : view.x)) / view.scale) * 100 : pct;
  const clip = vertical ? `inset(0 0 ${100 - local}% 0)` : `inset(0 ${100 - local}% 0 0)`;
  const imageTransform = view ? `translate(${view.x * 100}%, ${view.y * 100}%) scale(${view.scale})` : undefined;
  const style = { '--cs-ratio': `${100 * ratio}%` } as CSSProperties;
  const lineStyle: CSSProperties = vertical
    ? { top: linePos, height: lineWidth, background: lineColor, transform: `translateY(-${lineWidth / 2}px)` }
    : { left: linePos, width: lineWidth, background: lineColor, transform: `translateX(-${lineWidth / 2}px)` };
  const handleStyle: CSSProperties = {
    width: handleSize,
    height: handleSize,
    borderColor: lineColor,
    ...(vertical ? { top: linePos, left: '50%' } : { left: linePos, top: '50%' }),
  };

  return (
    <div className={`cs-root ${className ?? ''}`} data-testid={testId}>
      {!loaded && placeholder ? <div className="cs-placeholder">{placeholder}</div> : null}
      <div
        ref={containerRef}
        className={`cs-container ${vertical ? 'cs-vertical' : 'cs-horizontal'} ${dragging ? 'cs-dragging' : ''}`}
        style={{ ...style, display: loaded ? undefined : 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onLostPointerCapture={endDrag}
      >
        <img
          className="cs-img"
          src={rightImage.src}
          alt={rightImage.alt}
          draggable={false}
          data-side="right"
          style={imageTransform ? { transform: imageTransform } : undefined}
          ref={(img) => onImageLoad('right', img)}
          onLoad={(e) => onImageLoad('right', e.currentTarget)}
        />
        <img
          className="cs-img cs-img-left"
          src={leftImage.src}
          alt={leftImage.alt}
          draggable={false}
          data-side="left"
          style={{ clipPath: clip, transform: imageTransform }}
          ref={(img) => onImageLoad('left', img)}
          onLoad={(e) => onImageLoad('left', e.currentTarget)}
        />
        {leftImage.label ? <span className="cs-label cs-label-left">{leftImage.label}</span> : null}
        {rightImage.label ? <span className="cs-label cs-label-right">{rightImage.label}</span> : null}
        <div className="cs-line" style={lineStyle} aria-hidden="true" />
        <div
          className="cs-handle"
          style={handleStyle}
          role="slider"
          tabIndex={0}
          aria-label={`${leftImage.label ?? leftImage.alt} / ${rightImage.label ?? rightImage.alt}`}
          aria-orientation={orientation}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(pct)}
          data-testid={`${testId}-handle`}
          onKeyDown={onKeyDown}
        >
          <svg viewBox="0 0 24 24" width={handleSize * 0.55} height={handleSize * 0.55} aria-hidden="true" className="cs-arrows">
            <path d="M9 6l-6 6 6 6M15 6l6 6-6 6" fill="none" stroke={lineColor} strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
      </div>
    </div>
  );
}
