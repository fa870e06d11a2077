import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readCompactionPromptLayers } from "../../src/config/index.js";
import { put, useTempDir } from "./temp-dir.js";

describe("readCompactionPromptLayers", () => {
  const dir = useTempDir();
  const paths = () => ({
    basePath: path.join(dir(), "pkg", "assets", "COMPACTION.md"),
    pantoHome: path.join(dir(), "home"),
    projectRoot: path.join(dir(), "repo"),
  });

  it("returns only the base prompt when no override exists", async () => {
    await put(paths().basePath, "base prompt");
    expect(await readCompactionPromptLayers(paths())).toEqual([
      { source: "base", path: paths().basePath, content: "base prompt" },
    ]);
  });

  it("returns base, user and project layers in resolution order", async () => {
    const userPath = path.join(paths().pantoHome, "COMPACTION.md");
    const projectPath = path.join(paths().projectRoot, ".panto", "COMPACTION.md");
    await put(paths().basePath, "base");
    await put(userPath, "user");
    await put(projectPath, "project");
    expect(await readCompactionPromptLayers(paths())).toEqual([
      { source: "base", path: paths().basePath, content: "base" },
      { source: "user", path: userPath, content: "user" },
      { source: "project", path: projectPath, content: "project" },
    ]);
  });

  it("returns an empty override as a layer with empty content, for the resolver to reject", async () => {
    const projectPath = path.join(paths().projectRoot, ".panto", "COMPACTION.md");
    await put(paths().basePath, "base");
    await put(projectPath, "");
    const layers = await readCompactionPromptLayers(paths());
    expect(layers[1]).toEqual({ source: "project", path: projectPath, content: "" });
  });

  it("returns an unreadable override (a directory) as a layer with an error naming the file", async () => {
    const userPath = path.join(paths().pantoHome, "COMPACTION.md");
    await put(paths().basePath, "base");
    await mkdir(userPath, { recursive: true });
    const layers = await readCompactionPromptLayers(paths());
    expect(layers).toHaveLength(2);
    const user = layers[1];
    expect(user?.source).toBe("user");
    expect(user?.content).toBeUndefined();
    expect(user?.error).toBeInstanceOf(ConfigError);
    expect(user?.error?.message).toBe(
      `${userPath}: cannot read the user compaction prompt override: it is a directory (EISDIR)`,
    );
    expect(user?.error).toMatchObject({ file: userPath });
  });

  it("reports a missing base prompt as an error layer rather than throwing", async () => {
    const layers = await readCompactionPromptLayers(paths());
    expect(layers).toHaveLength(1);
    expect(layers[0]?.error?.message).toContain(paths().basePath);
  });

  it("reads a file reached as both user and project only once", async () => {
    const pantoHome = path.join(paths().projectRoot, ".panto");
    await put(paths().basePath, "base");
    await put(path.join(pantoHome, "COMPACTION.md"), "mine");
    const layers = await readCompactionPromptLayers({ ...paths(), pantoHome });
    expect(layers.map((layer) => layer.source)).toEqual(["base", "user"]);
  });
});
