import { describe, expect, it } from "vitest";
import { looksSecretName, toolEnvironment } from "../../src/secrets/index.js";

describe("toolEnvironment", () => {
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: "/home/me",
    LANG: "C.UTF-8",
    ANTHROPIC_API_KEY: "sk-ant-0123456789",
    GITHUB_TOKEN: "ghp_0123456789",
    AWS_SECRET_ACCESS_KEY: "aws-0123456789",
    PGPASSWORD: "hunter2hunter2",
    DB_PASSWD: "x",
    GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json",
    HTTP_AUTH: "basic",
    SSH_PRIVATE: "x",
    SESSION_COOKIE: "abc",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
    COPIED: "sk-ant-0123456789",
  };

  it("keeps ordinary variables and withholds names that look secret", () => {
    const result = toolEnvironment(env);
    expect(Object.keys(result).sort()).toEqual([
      "COPIED",
      "DBUS_SESSION_BUS_ADDRESS",
      "HOME",
      "LANG",
      "PATH",
    ]);
  });

  it("also withholds any variable holding a known secret value", () => {
    const result = toolEnvironment(env, { isSecret: (value) => value === "sk-ant-0123456789" });
    expect(result.COPIED).toBeUndefined();
    expect(result.PATH).toBe("/usr/bin:/bin");
  });

  it("passes the named variables through as set", () => {
    const result = toolEnvironment(env, { passthrough: ["GITHUB_TOKEN", "NOT_SET"] });
    expect(result.GITHUB_TOKEN).toBe("ghp_0123456789");
    expect(result.ANTHROPIC_API_KEY).toBeUndefined();
    expect("NOT_SET" in result).toBe(false);
  });

  it("matches secret words anywhere in a name, in any case", () => {
    for (const name of ["x-api-key", "Authorization", "Cookie", "npm_token", "MyPassword"])
      expect(looksSecretName(name)).toBe(true);
    for (const name of ["x-team", "Content-Type", "PATH", "XDG_SESSION_ID", "EDITOR"])
      expect(looksSecretName(name)).toBe(false);
  });
});
