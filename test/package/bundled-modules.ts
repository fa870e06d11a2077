import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const BIN_DIR = fileURLToPath(new URL("../../dist/bin", import.meta.url));

/**
 * The modules bundled into the given files of dist/bin, as dist/bin/modules.json (written by
 * scripts/bundle-cli.mjs) lists them: "src/..." for panto's own, "node_modules/PACKAGE/..." for a
 * package's. panto.cjs, copied as it is, holds none; any other file missing from the list is an error.
 */
export function bundledModules(files: Iterable<string>): string[] {
  const manifest = JSON.parse(readFileSync(join(BIN_DIR, "modules.json"), "utf8")) as Record<
    string,
    string[]
  >;
  const modules = new Set<string>();
  for (const file of files) {
    const name = relative(BIN_DIR, file);
    if (name === "panto.cjs") continue;
    const inFile = manifest[name];
    if (inFile === undefined) throw new Error(`${file} is not in dist/bin/modules.json`);
    for (const module of inFile) modules.add(module);
  }
  return [...modules];
}

/** "node_modules/PACKAGE" for a package's module, undefined for panto's own. */
export function packageOf(module: string): string | undefined {
  return /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(module)?.[0].slice(0, -1);
}
