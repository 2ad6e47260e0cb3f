// The last days' tokens by agent, drawn with uPlot (a canvas: colours come
// from the theme's CSS variables and are re-read when the theme changes).
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { seriesColors, shortCount, type ChartData } from "./chart";

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function options(data: ChartData, width: number): uPlot.Options {
  const text = themeColor("--muted", "#5f6673");
  const grid = themeColor("--border", "#e1e4ea");
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: width < 500 ? 180 : 240,
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    axes: [
      { ...axis, space: width < 500 ? 70 : 50, values: (_u, ts) => ts.map((t) => new Date(t * 1000).toLocaleDateString(undefined, { month: "short", day: "numeric" })) },
      { ...axis, size: 48, values: (_u, ts) => ts.map(shortCount) },
    ],
    series: [
      {},
      ...data.agents.map((a, i) => ({
        label: a,
        stroke: seriesColors[i % seriesColors.length],
        width: 2,
        points: { show: true, size: 4 },
      })),
    ],
  };
}

export function UsageChart({ data }: { data: ChartData }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | undefined;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(options(data, Math.max(200, el.clientWidth)), [data.days, ...data.tokens], el);
    };
    draw();
    // Wake on events: the box's width, and the theme (the OS's or the person's).
    const resize = new ResizeObserver(() => {
      if (plot && Math.abs(plot.width - el.clientWidth) > 1) draw();
    });
    resize.observe(el);
    const media = window.matchMedia?.("(prefers-color-scheme: dark)");
    media?.addEventListener("change", draw);
    const theme = new MutationObserver(draw);
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      resize.disconnect();
      media?.removeEventListener("change", draw);
      theme.disconnect();
      plot?.destroy();
    };
  }, [data]);
  return <div ref={box} className="usage-chart" role="img" aria-label={`Tokens per day by agent: ${data.agents.join(", ") || "no runs"}`} />;
}
