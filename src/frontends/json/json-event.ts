/** One line of `--json` output. Field names are snake_case and stable: scripts depend on them. */
export type JsonEvent = { type: string } & Record<string, unknown>;
