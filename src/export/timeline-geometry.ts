import type { CompactionMark, CompactionStatus, RequestPoint, TodoMark } from "./scan-session.js";

/** Drawing area of the timeline, in SVG user units. */
export const TIMELINE_BOX = { width: 960, height: 220, left: 64, right: 16, top: 16, bottom: 28 } as const;

/** More requests than this are drawn as buckets (the largest of each), so huge sessions stay light. */
export const MAX_TIMELINE_POINTS = 2000;

export interface PlotPoint {
  x: number;
  y: number;
  tokens: number;
  estimated: boolean;
}

export interface PlotMarker {
  mark: CompactionMark;
  x: number;
  /** Top and bottom of the drop (the same when the sizes are unknown). */
  yBefore: number;
  yAfter: number;
  status: CompactionStatus;
}

export interface TimelineGeometry {
  points: PlotPoint[];
  markers: PlotMarker[];
  /** Each change of the task list, on the boundary after the requests before it. */
  todoMarkers: Array<{ mark: TodoMark; x: number }>;
  /** The value at the top of the plot. */
  maxTokens: number;
  windowY?: number;
  /** y of 0 tokens (the baseline). */
  baseY: number;
}

/** A round value at or above `value` (1, 2 or 5 times a power of ten). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}

/** Requests grouped `size` at a time: the largest of each group, estimated if any of it is. */
function bucket(
  requests: readonly RequestPoint[],
  size: number,
): Array<{ index: number; tokens: number; estimated: boolean }> {
  const buckets: Array<{ index: number; tokens: number; estimated: boolean }> = [];
  for (let start = 0; start < requests.length; start += size) {
    const group = requests.slice(start, start + size);
    buckets.push({
      index: start + (group.length - 1) / 2,
      tokens: Math.max(...group.map((point) => point.tokens)),
      estimated: group.some((point) => point.estimated),
    });
  }
  return buckets;
}

/**
 * Where everything goes. Request i sits at the centre of slot i of equal width; a compaction made
 * after k requests sits on the boundary between slots k-1 and k. y is linear in tokens from the
 * baseline (0) to `maxTokens` at the top: a round value above the largest size or window.
 */
export function timelineGeometry(
  requests: readonly RequestPoint[],
  compactions: readonly CompactionMark[],
  window?: number,
  todos: readonly TodoMark[] = [],
): TimelineGeometry {
  const box = TIMELINE_BOX;
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const largest = Math.max(
    window ?? 0,
    ...requests.map((point) => point.tokens),
    ...compactions.map((mark) => mark.before ?? 0),
  );
  const maxTokens = niceCeiling(largest * 1.05);
  const slot = plotWidth / Math.max(requests.length, 1);
  const xAt = (slots: number): number => box.left + slots * slot;
  const yOf = (tokens: number): number =>
    box.top + plotHeight * (1 - Math.min(tokens, maxTokens) / maxTokens);
  const size = Math.ceil(requests.length / MAX_TIMELINE_POINTS);
  const grouped =
    size <= 1
      ? requests.map((point, index) => ({ index, tokens: point.tokens, estimated: point.estimated }))
      : bucket(requests, size);
  const geometry: TimelineGeometry = {
    points: grouped.map((point) => ({
      x: xAt(point.index + 0.5),
      y: yOf(point.tokens),
      tokens: point.tokens,
      estimated: point.estimated,
    })),
    markers: compactions.map((mark) => ({
      mark,
      x: xAt(mark.afterRequest),
      yBefore: yOf(mark.before ?? mark.after ?? 0),
      yAfter: yOf(mark.after ?? mark.before ?? 0),
      status: mark.status,
    })),
    todoMarkers: todos.map((mark) => ({ mark, x: xAt(mark.afterRequest) })),
    maxTokens,
    baseY: yOf(0),
  };
  if (window !== undefined) geometry.windowY = yOf(window);
  return geometry;
}
