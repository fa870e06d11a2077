/**
 * 12345 -> "12,345", as `toLocaleString("en-US")` writes an integer (a fraction is rounded first),
 * whatever the machine's locale. Not toLocaleString itself: its first call in a process starts
 * ICU's number formatting, about 12 ms, which a stub or a report line would add to a run's start.
 */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
