/**
 * `{ [key]: value }` when `value` is defined, else `{}`: spread it to set an optional property only
 * when there is a value (exactOptionalPropertyTypes forbids writing `undefined` into one).
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
