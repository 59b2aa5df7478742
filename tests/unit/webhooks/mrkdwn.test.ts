import { describe, expect, it } from "vitest";
import { clip } from "@/lib/webhooks/channels/clip";
import { escapeMrkdwn, mrkdwnLink } from "@/lib/webhooks/channels/slack";

describe("Slack mrkdwn escaping: page content can never mention or link", () => {
  it.each([
    ["a channel mention", "<!channel>", "&lt;!channel&gt;"],
    ["here and everyone", "<!here> <!everyone>", "&lt;!here&gt; &lt;!everyone&gt;"],
    ["a user mention", "<@U024BE7LH>", "&lt;@U024BE7LH&gt;"],
    ["a channel link", "<#C024BE7LR|general>", "&lt;#C024BE7LR|general&gt;"],
    ["a link with a label", "<https://evil.example|click me>", "&lt;https://evil.example|click me&gt;"],
    ["an ampersand, and an entity that must not decode", "Tom & Jerry &lt;b&gt;", "Tom &amp; Jerry &amp;lt;b&amp;gt;"],
    ["plain text is unchanged", "Trail shoe 1 of our review", "Trail shoe 1 of our review"],
    ["emoji and non-Latin text are unchanged", "Schuhe für 🏃 — ランニング", "Schuhe für 🏃 — ランニング"],
  ])("%s", (_name, input, expected) => {
    expect(escapeMrkdwn(input)).toBe(expected);
    expect(escapeMrkdwn(input)).not.toMatch(/[<>]/);
  });

  it.each([
    ["an https URL becomes our link", "https://example.org/post", "post", "<https://example.org/post|post>"],
    ["& in the query is escaped", "https://example.org/?a=1&b=2", "q", "<https://example.org/?a=1&amp;b=2|q>"],
    ["a | in the URL cannot end the link", "https://example.org/a|b", "x", "<https://example.org/a%7Cb|x>"],
    [
      "< and > in the URL are percent-encoded by the parser",
      "https://example.org/<!channel>",
      "x",
      "<https://example.org/%3C!channel%3E|x>",
    ],
    [
      "a label cannot close the link or open another",
      "https://example.org/",
      "a> <!channel",
      "<https://example.org/|a&gt; &lt;!channel>",
    ],
    [
      "underscores and tildes in the URL stay a working address; the label formats nothing",
      "https://example.org/a_b~c",
      "*big*",
      "<https://example.org/a_b~c|\u2217big\u2217>",
    ],
    ["a domain target is text, not a link", "mine.example", "mine.example", "mine.example"],
    ["a javascript: URL is text", "javascript:alert(1)", "javascript:alert(1)", "javascript:alert(1)"],
  ])("%s", (_name, url, label, expected) => {
    expect(mrkdwnLink(url, label)).toBe(expected);
  });

  it.each([
    ["short text is kept", "abc", 5, "abc"],
    ["long text is cut with an ellipsis", "abcdefgh", 5, "abcd…"],
    ["code points, not UTF-16 units", "🏃🏃🏃🏃🏃🏃", 3, "🏃🏃…"],
  ])("clip: %s", (_name, text, max, expected) => {
    expect(clip(text, max)).toBe(expected);
  });
});
