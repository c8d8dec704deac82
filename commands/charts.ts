/**
 * Chart pictures for cards: an ECharts option drawn by ECharts' server-side SVG renderer (`ssr: true`,
 * no DOM, no browser) and rasterised to PNG by resvg with the DejaVu fonts shipped in
 * `dejavu-fonts-ttf` (no system fonts, so every machine draws the same picture).
 */
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import * as echarts from 'echarts';
import type { CardImage } from '../src/core/reply';

const require = createRequire(import.meta.url);
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((name) =>
  require.resolve(`dejavu-fonts-ttf/ttf/${name}`),
);
const FONT = 'DejaVu Sans';

/** One series of a bar or line chart. */
export interface ChartSeries {
  name: string;
  values: readonly number[];
  type?: 'bar' | 'line';
}

/** What to draw. */
export interface ChartSpec {
  title: string;
  /** Labels along the x axis, one per value. */
  categories: readonly string[];
  series: readonly ChartSeries[];
  width?: number;
  height?: number;
}

/** The chart as an SVG document (ECharts' server-side renderer). */
export function chartSvg(spec: ChartSpec): string {
  const width = spec.width ?? 800;
  const height = spec.height ?? 400;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: FONT },
      title: { text: spec.title, left: 'center', textStyle: { fontFamily: FONT, fontSize: 16 } },
      legend: spec.series.length > 1 ? { bottom: 0, textStyle: { fontFamily: FONT } } : undefined,
      grid: { left: 56, right: 24, top: 48, bottom: spec.series.length > 1 ? 56 : 36 },
      xAxis: { type: 'category', data: [...spec.categories] },
      yAxis: { type: 'value', minInterval: 1 },
      series: spec.series.map((s) => ({ name: s.name, type: s.type ?? 'bar', data: [...s.values] })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The chart as a PNG picture for a card, with its alt text and text fallback. */
export function chartImage(
  spec: ChartSpec,
  image: { filename: string; alt: string; fallback?: string },
): CardImage {
  const svg = chartSvg(spec);
  const rendered = new Resvg(svg, {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT },
  }).render();
  const png = rendered.asPng();
  return {
    pngBase64: Buffer.from(png).toString('base64'),
    filename: image.filename,
    alt: image.alt,
    width: rendered.width,
    height: rendered.height,
    ...(image.fallback ? { fallback: image.fallback } : {}),
  };
}
