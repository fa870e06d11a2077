#!/usr/bin/env node
// The installed `panto` command, copied to dist/bin/ by bundle-cli.mjs. It is CommonJS so that
// `panto --version` answers before Node starts its ES module loader; every other command line runs
// the bundled CLI (dist/bin/panto.js, built from src/cli/main.ts).
"use strict";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${readVersion()}\n`);
} else {
  import("./panto.js");
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
