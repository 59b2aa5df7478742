import { describe, expect, it } from "vitest";
import { MAX_SUBJECT_CHARACTERS, subjectLine } from "@/lib/mail/subject";

describe("subjectLine: every outbox subject is one line of at most 200 characters", () => {
  it.each([
    ["a short subject stays as it is", "Ada invited you to Team on LinkLens", "Ada invited you to Team on LinkLens"],
    ["CR LF becomes a space (no header injection)", "Hi\r\nBcc: all@example.com", "Hi Bcc: all@example.com"],
    ["tabs, NEL, U+2028/2029 and DEL too", "a\tb\u0085c\u2028d\u2029e\u007ff", "a b c d e f"],
    ["leading and trailing breaks go", "\r\nHello\n", "Hello"],
  ])("%s", (_what, input, expected) => {
    expect(subjectLine(input)).toBe(expected);
  });

  it("a long subject is cut to 200 characters ending in an ellipsis", () => {
    const subject = subjectLine("x".repeat(60_145));
    expect(subject).toHaveLength(MAX_SUBJECT_CHARACTERS);
    expect(subject).toBe(`${"x".repeat(199)}…`);
    expect(subjectLine("y".repeat(200))).toBe("y".repeat(200));
  });

  it("counts characters, and never cuts an emoji in half", () => {
    const subject = subjectLine("🙂".repeat(300));
    expect([...subject]).toHaveLength(MAX_SUBJECT_CHARACTERS);
    expect(subject).toBe(`${"🙂".repeat(199)}…`);
    expect(encodeURIComponent(subject)).toBeTruthy(); // throws on a lone surrogate
  });
});
