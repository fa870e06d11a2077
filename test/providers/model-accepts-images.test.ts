import { describe, expect, it } from "vitest";
import { modelAcceptsImages, modelIdAcceptsImages } from "../../src/providers/model-accepts-images.js";

describe("which models accept images", () => {
  it("knows text-only models even on vision APIs", () => {
    expect(modelAcceptsImages("openai-responses", "gpt-3.5-turbo")).toBe(false);
    expect(modelAcceptsImages("openai-responses", "gpt-4")).toBe(false);
    expect(modelAcceptsImages("openai-responses", "o3-mini")).toBe(false);
    expect(modelAcceptsImages("anthropic-messages", "claude-3-5-haiku-20241022")).toBe(false);
  });

  it("knows vision families wherever they are served, a gateway's vendor prefix left aside", () => {
    expect(modelAcceptsImages("openai-chat", "anthropic/claude-sonnet-4.5")).toBe(true);
    expect(modelAcceptsImages("openai-chat", "llava:13b")).toBe(true);
    expect(modelAcceptsImages("openai-chat", "qwen2.5vl:7b")).toBe(true);
    expect(modelAcceptsImages("openai-chat", "meta-llama/llama-4-scout")).toBe(true);
    expect(modelAcceptsImages("openai-responses", "gpt-5")).toBe(true);
    expect(modelAcceptsImages("openai-responses", "o4-mini")).toBe(true);
  });

  it("takes an unknown model on a vision API to accept images, and one behind Chat Completions not to", () => {
    expect(modelAcceptsImages("google-gemini", "some-new-model")).toBe(true);
    expect(modelAcceptsImages("anthropic-messages", "some-new-model")).toBe(true);
    expect(modelAcceptsImages("openai-chat", "qwen2.5-coder:7b")).toBe(false);
  });

  it("reads a provider/model id with the built-in provider's API; a provider only config knows is taken to accept", () => {
    expect(modelIdAcceptsImages("ollama/qwen2.5-coder:7b")).toBe(false);
    expect(modelIdAcceptsImages("ollama/llava")).toBe(true);
    expect(modelIdAcceptsImages("openai/gpt-3.5-turbo")).toBe(false);
    expect(modelIdAcceptsImages("mycorp/anything")).toBe(true);
  });
});
