/** The OpenAI API's own endpoint, with its version: the base URL both OpenAI adapters default to. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
