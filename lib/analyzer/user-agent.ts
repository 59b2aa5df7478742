/**
 * How LinkLens identifies itself, in one place: the link checker sends BOT_USER_AGENT alone; the
 * browser sends Chrome's own User-Agent with it appended (see browserUserAgent).
 */
export const BOT_USER_AGENT = "LinkLensBot/1.0 (+https://linklens.dev/docs)";

/**
 * The browser's User-Agent: Chrome's, without the HeadlessChrome token that makes many sites serve an
 * error page, with our honest bot token appended.
 */
export function browserUserAgent(chromeUserAgent: string): string {
  return `${chromeUserAgent.replace("HeadlessChrome", "Chrome")} ${BOT_USER_AGENT}`;
}
