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
 * bundle itself is cached too, not only the chunks it loads after main.ts turns it on.
 */
function enableCompileCache() {
  try {
    require("node:module").enableCompileCache?.();
  } catch {
    // A cache folder that cannot be created only costs the speed-up.
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
