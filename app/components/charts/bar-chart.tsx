import { extentWithZero, linearScale } from './scale';

export interface Bar {
  label: string;
  value: number;
  /** The value as the page writes it: `2×`, `−10%`, `9 s`. */
  text: string;
  /** `muted` for the comparison (before, by hand), `brand` for the result. */
  tone: 'muted' | 'brand';
}

const WIDTH = 320;
const ROW = 60;
const BAR = 24;
/** Room beside the bars for their values. */
const GUTTER = 56;

const TONES: Record<Bar['tone'], string> = {
  muted: 'fill-muted',
  brand: 'fill-brand-600 dark:fill-brand-400',
};

/**
 * Horizontal bars from zero, drawn on the server: labels above each bar, values beside it, and
 * a zero line when some values are negative. A fixed viewBox with width and height keeps its
 * box from the first paint; text takes the theme's ink through currentColor.
 */
export function BarChart({ bars, label, step = 10 }: { bars: readonly Bar[]; label: string; step?: number }) {
  const [low, high] = extentWithZero(
    bars.map((bar) => bar.value),
    step,
  );
  const x = linearScale([low, high], [low < 0 ? GUTTER : 0, WIDTH - GUTTER]);
  const zero = x(0);
  const height = bars.length * ROW + 4;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width={WIDTH}
      height={height}
      role="img"
      aria-label={label}
      className="h-auto w-full max-w-sm text-ink"
      data-testid="chart"
    >
      {bars.map((bar, index) => {
        const top = index * ROW;
        const end = x(bar.value);
        const negative = bar.value < 0;
        return (
          <g key={bar.label}>
            <text x={0} y={top + 16} className="fill-current text-[14px]">
              {bar.label}
            </text>
            <rect
              x={Math.min(zero, end)}
              y={top + 24}
              width={Math.max(Math.abs(end - zero), 2)}
              height={BAR}
              rx={4}
              className={TONES[bar.tone]}
            />
            <text
              x={negative ? end - 6 : end + 6}
              y={top + 24 + BAR / 2 + 5}
              textAnchor={negative ? 'end' : 'start'}
              className="fill-current text-[14px] font-semibold"
            >
              {bar.text}
            </text>
          </g>
        );
      })}
      {low < 0 ? <line x1={zero} x2={zero} y1={20} y2={height} stroke="currentColor" strokeWidth={1.5} /> : null}
    </svg>
  );
}
