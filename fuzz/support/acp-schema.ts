import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** A zod schema, as far as the fuzz targets use one. */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { message: string } };
}

/** The protocol's own schemas, as the official SDK validates messages with them. */
export interface AcpSchemas {
  sessionUpdate: Schema;
  contentBlock: Schema;
}

/**
 * The SDK's generated zod schemas for ACP v1. The package does not export them by name, so they are
 * loaded from beside its entry point; a fuzz target then checks that what panto sends is valid
 * protocol, with the very schemas a client built on the SDK validates it with.
 */
export async function loadAcpSchemas(): Promise<AcpSchemas> {
  const entry = createRequire(import.meta.url).resolve("@agentclientprotocol/sdk");
  const file = join(dirname(entry), "..", "schema", "zod.gen.js");
  const module = (await import(pathToFileURL(file).href)) as Record<string, Schema | undefined>;
  const { zSessionUpdate, zContentBlock } = module;
  if (zSessionUpdate === undefined || zContentBlock === undefined)
    throw new Error(
      `${file} no longer exports zSessionUpdate and zContentBlock: update fuzz/support/acp-schema.ts`,
    );
  return { sessionUpdate: zSessionUpdate, contentBlock: zContentBlock };
}
