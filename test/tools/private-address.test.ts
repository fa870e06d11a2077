import { describe, expect, it } from "vitest";
import { privateAddressReason } from "../../src/tools/private-address.js";

describe("privateAddressReason: the addresses web_fetch refuses by default", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["10.1.2.3", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.255", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["100.64.0.1", "CGNAT"],
    ["100.100.100.200", "CGNAT"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd00:ec2::254", "unique-local"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["64:ff9b::10.0.0.1", "RFC 1918"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:0101::1", "RFC 1918"],
    ["::127.0.0.1", "IPv4-compatible"],
  ])("refuses %s (%s)", (address, word) => {
    expect(privateAddressReason(address)).toContain(word);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700::6810:85e5",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("lets the public address %s through", (address) => {
    expect(privateAddressReason(address)).toBeUndefined();
  });

  it("refuses what is not an IP literal, so a name never slips past the check unresolved", () => {
    expect(privateAddressReason("localhost")).toBe("not an IP address");
    expect(privateAddressReason("")).toBe("not an IP address");
  });
});
