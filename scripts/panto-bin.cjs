#!/usr/bin/env node
// The installed `panto` command, copied to dist/bin/ by bundle-cli.mjs. It is CommonJS so that
// `panto --version` answers before Node starts its ES module loader; every other command line runs
// the bundled CLI (dist/bin/panto.js, built from src/cli/main.ts).
"use strict";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${readVersion()}\n`);
} else {
  enableCompileCache();
  import("./panto.js");
}

/**
 * Node 22.1 and later keep compiled code on disk, so later starts skip most parsing and compiling
 * (NODE_DISABLE_COMPILE_CACHE=1 turns it off). Turned on here, before the bundle loads, so the
 * bundle itself is cached too, not only the chunks it loads after main.ts turns it on. Only in an
 * existing temporary folder outside /proc and /sys (the rule main.ts keeps too): Node would create a
 * missing TMPDIR that panto must refuse, and spins when asked to create a folder under /proc.
 */
function enableCompileCache() {
  const { enableCompileCache: enable } = require("node:module");
  if (enable === undefined) return;
  try {
    const { realpathSync, statSync } = require("node:fs");
    const folder = realpathSync(require("node:os").tmpdir());
    if (/^\/(proc|sys)(\/|$)/.test(folder) || !statSync(folder).isDirectory()) return;
    enable(require("node:path").join(folder, "node-compile-cache"));
  } catch {
    // No usable temporary folder, or a cache folder that cannot be created: only the speed-up is lost.
  }
}

function readVersion() {
  const { readFileSync } = require("node:fs");
  const { join } = require("node:path");
  try {
    return JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}
