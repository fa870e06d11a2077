/** 12345 -> "12,345": the figures on the page, in one locale whatever the machine's. */
export { formatCount } from "../core/index.js";

/** 12345 -> "12.3k", 2500000 -> "2.5M": compact figures for axis labels. */
export function formatShort(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}k`;
  return String(Math.round(value));
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, "");
}
