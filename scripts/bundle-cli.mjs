// Bundles the CLI into dist/bin/ for the installed `panto` command: one file for start-up, and one
// chunk per lazily imported part (each provider adapter with its SDK, the modes), so a run still
// loads only what it needs, from a handful of files instead of hundreds of modules.
// The command itself is dist/bin/panto.cjs (scripts/panto-bin.cjs), which answers --version at once
// and imports dist/bin/panto.js for everything else. The library entry (dist/index.js) and most
// tests keep using tsc's per-module output.
import { chmodSync, copyFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const outdir = new URL("../dist/bin/", import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { panto: new URL("../src/cli/main.ts", import.meta.url).pathname },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "[name]-[hash]",
  // Some bundled CommonJS dependencies call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __pantoRequire } from "node:module"; const require = __pantoRequire(import.meta.url);',
  },
  legalComments: "linked",
  logLevel: "warning",
});
const bin = new URL("../dist/bin/panto.cjs", import.meta.url);
copyFileSync(new URL("panto-bin.cjs", import.meta.url), bin);
chmodSync(bin, 0o755);
