import { describe, expect, it } from "vitest";
import { type ModelClient, PantoError } from "../../src/core/index.js";
import { chooseModel } from "../../src/runtime/setup/choose-model.js";

/** A factory that accepts every id except those whose key is "missing". */
function clients(missing: readonly string[] = []) {
  return (id: string): ModelClient => {
    if (missing.includes(id)) throw new PantoError("auth", `${id}: set the key`);
    const [provider = "", model = ""] = id.split("/");
    return { id, provider, model, stream: async () => Promise.reject(new Error("not used")) };
  };
}

const base = {
  flag: undefined,
  recorded: undefined,
  configured: undefined,
  env: {},
  createClient: clients(),
};

describe("chooseModel", () => {
  it("-m wins over a resumed session's model, and says so", () => {
    expect(chooseModel({ ...base, flag: "a/x", recorded: "b/y" })).toEqual({
      model: "a/x",
      notice: "-m a/x replaces b/y, the model this session was using",
    });
    expect(chooseModel({ ...base, flag: "a/x", recorded: "a/x" })).toEqual({ model: "a/x" });
  });

  it("restores a resumed session's model over config, naming it only when it differs", () => {
    expect(chooseModel({ ...base, recorded: "b/y", configured: "a/x" })?.notice).toBe(
      "model b/y restored from the session",
    );
    expect(chooseModel({ ...base, recorded: "a/x", configured: "a/x" })).toEqual({ model: "a/x" });
  });

  it("falls back, with a warning, when the recorded model cannot be used now", () => {
    const choice = chooseModel({
      ...base,
      recorded: "b/y",
      configured: "a/x",
      createClient: clients(["b/y"]),
    });
    expect(choice?.model).toBe("a/x");
    expect(choice?.warning).toContain(
      "this session was using b/y, which cannot be used now: b/y: set the key",
    );
  });

  it("uses the documented default of the first provider whose key is set, and names it", () => {
    expect(chooseModel({ ...base, env: { GOOGLE_API_KEY: "g", OPENAI_API_KEY: "o" } })).toEqual({
      model: "openai/gpt-5",
      notice:
        'no model configured: using openai/gpt-5 because OPENAI_API_KEY is set (-m or "model" in config.json chooses another)',
    });
    expect(chooseModel({ ...base, env: { GOOGLE_API_KEY: "g" } })?.model).toBe("google/gemini-2.5-pro");
    expect(chooseModel({ ...base, env: { ANTHROPIC_API_KEY: "" } })).toBeUndefined();
  });
});
