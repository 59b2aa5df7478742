import { isbot } from "isbot";
import { getConfig, type Config } from "@/lib/config";

/**
 * Whether a URL-mode request looks automated (decisions.md, Bot check): a missing, empty or blank
 * `User-Agent`, or one the maintained `isbot` patterns recognise (crawlers, HTTP libraries such as curl and
 * python-requests, headless browsers). Real browser agents answer false.
 */
export function isAutomatedUserAgent(userAgent: string | null | undefined): boolean {
  if (userAgent === null || userAgent === undefined || userAgent.trim() === "") return true;
  return isbot(userAgent);
}

/** `BOT_PROTECTION` (default on); when off, URL mode skips the bot check. */
export function botProtectionEnabled(config: Pick<Config, "BOT_PROTECTION"> = getConfig()): boolean {
  return config.BOT_PROTECTION === "on";
}
