import { BarChart } from 'chartist';
import { useEffect, useRef } from 'react';
import 'chartist/dist/index.css';
import './sales-chart.css';

/**
 * Sales per day of the period beside the same day of the period before, drawn by Chartist (SVG, 8 KB
 * gzipped; docs/architecture.md says why). Loaded lazily by the dashboard; the figures themselves are
 * in the dashboard's table, so the drawing is one image with a name.
 */
export default function SalesChart({
  days,
  now,
  before,
  label,
}: {
  /** `YYYY-MM-DD` of each day of the period, oldest first. */
  days: string[];
  now: number[];
  before: number[];
  label: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<BarChart | undefined>(undefined);

  useEffect(() => {
    if (!element.current) return;
    // a label every week at most: 90 days of dates would overlap
    const every = Math.ceil(days.length / 10);
    const data = { labels: days.map((day) => day.slice(5)), series: [before, now] };
    const options = {
      height: '12rem',
      seriesBarDistance: days.length > 30 ? 2 : 6,
      axisX: {
        showGrid: false,
        labelInterpolationFnc: (value: unknown, index: number) =>
          index % every === 0 ? String(value) : null,
      },
      axisY: { onlyInteger: true },
    };
    if (chart.current) chart.current.update(data, options);
    else chart.current = new BarChart(element.current, data, options);
  }, [days, now, before]);

  useEffect(
    () => () => {
      chart.current?.detach();
      chart.current = undefined;
    },
    [],
  );

  return (
    <figure className="sales-chart">
      <div ref={element} role="img" aria-label={label} />
      <figcaption className="sales-chart__legend">
        <span className="sales-chart__key sales-chart__key--now">This period</span>
        <span className="sales-chart__key sales-chart__key--before">The period before</span>
      </figcaption>
    </figure>
  );
}
