/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours each cost 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * The candidates nearest to `word` (case-insensitive), closest first, at most `limit`, and only
 * those within `maxDistance` edits (default: a third of the word's length, at least 2).
 */
export function nearestNames(
  word: string,
  candidates: readonly string[],
  options: { limit?: number; maxDistance?: number } = {},
): string[] {
  const wanted = word.toLowerCase();
  const maxDistance = options.maxDistance ?? Math.max(2, Math.floor(wanted.length / 3));
  return [...new Set(candidates)]
    .map((name) => ({ name, distance: editDistance(wanted, name.toLowerCase()) }))
    .filter((candidate) => candidate.distance <= maxDistance)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, options.limit ?? 3)
    .map((candidate) => candidate.name);
}
