// Copies the team's shared provider-error fixture into the repository, where every test reads it.
// The shared file (`../shared/fixtures/provider-errors.jsonl` beside the checkout, or the path given
// as the first argument) stays the source; run this after it changes and commit the copy.
import { copyFileSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// The team's shared folder sits beside the checkout; it is read here only, never by a test.
const source = resolve(process.argv[2] ?? resolve(root, "..", "shared", "fixtures", "provider-errors.jsonl"));
const target = resolve(root, "test/providers/fixtures/provider-errors.jsonl");
if (!existsSync(source)) {
  console.error(`refresh-fixtures: no shared fixture at ${source}; pass its path as the first argument`);
  process.exit(2);
}
copyFileSync(source, target);
console.log(`refresh-fixtures: copied ${source} -> ${target}`);
