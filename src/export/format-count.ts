/** 12345 -> "12,345": the figures on the page, in one locale whatever the machine's. */
export function formatCount(value: number): string {
  // toLocaleString is slow enough to show in a 100 MB export; this is the same for integers.
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 12345 -> "12.3k", 2500000 -> "2.5M": compact figures for axis labels. */
export function formatShort(value: number): string {
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}k`;
  return String(Math.round(value));
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, "");
}
