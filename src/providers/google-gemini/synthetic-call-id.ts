const PREFIX = "gemini_call_";

/**
 * Gemini may return function calls without ids. Ours are derived from the call's position and
 * name in its response, so they are stable, and recognisable so they are never sent back as if
 * the API had issued them (results are matched by name and order instead).
 */
export function syntheticCallId(index: number, name: string): string {
  return `${PREFIX}${index}_${name}`;
}

export function isSyntheticCallId(id: string): boolean {
  return id.startsWith(PREFIX);
}
