import { Listener } from "@/lib/net/proxy-listener";
import type { FilteringProxyOptions, ProxyListener, ProxyTotals } from "@/lib/net/proxy-types";
import type { GuardOptions } from "@/lib/net/resolve";

export type { BlockedAttempt, FilteringProxyOptions, ProxyListener, ProxyTotals } from "@/lib/net/proxy-types";

/**
 * The egress filter for Chromium: an in-process HTTP proxy that every byte the browser sends
 * to the network must pass (launched with --proxy-server and `<-loopback>` so even 127.0.0.1 goes
 * through it). Request interception in the page is only a second layer; it cannot see every request
 * (workers, prefetch, WebSocket, beacons, navigations started by the network service). The proxy can.
 *
 * For each CONNECT (https, wss) or absolute-URI request (http, ws over http) it resolves the host
 * once, refuses if any address is non-public (or the port is not 80/443) unless `host:port` is
 * allow-listed, and then connects to the checked IP: no second lookup, so DNS rebinding cannot
 * swap the address after the check.
 *
 * Sessions: each render opens its own listener (same policy, own port) and gives it to its
 * incognito context as `proxyServer`. What a session refused is then known to belong to that
 * render, which is how the renderer tells "the page itself was blocked" from "a subresource was".
 *
 * The parts: proxy-listener.ts (one port: the policy check and the record of refusals),
 * proxy-tunnel.ts (CONNECT and Upgrade), proxy-forward.ts (plain HTTP), proxy-types.ts (their shapes).
 */

/** Per-session overrides of FilteringProxy.openSession. */
export interface SessionOptions {
  /** DNS for this session only: one analysis's shared cache (see cachingResolver). */
  resolver?: GuardOptions["resolver"];
}

/**
 * The filtering proxy: a default listener (for the browser-wide --proxy-server flag) plus
 * per-render sessions. See the module comment for the policy.
 */
export class FilteringProxy {
  private readonly sessions = new Set<Listener>();
  /** Refused and allowed upstream connections, all listeners, since start. */
  readonly totals: ProxyTotals;

  private constructor(
    private readonly options: FilteringProxyOptions,
    /** The browser-wide listener: catches whatever runs outside a render's own context. */
    readonly main: ProxyListener,
    totals: ProxyTotals,
  ) {
    this.totals = totals;
  }

  /** Starts the proxy's default listener on `bindHost`:random. */
  static async start(options: FilteringProxyOptions): Promise<FilteringProxy> {
    const totals: ProxyTotals = { blocked: 0, allowed: 0 };
    const main = new Listener(options, totals);
    await main.listen();
    return new FilteringProxy(options, main, totals);
  }

  /** `http://host:port` of the default listener. */
  get url(): string {
    return this.main.url;
  }

  /** Opens a listener whose refusals belong to one render only. Close it when the render ends. */
  async openSession(overrides: SessionOptions = {}): Promise<ProxyListener> {
    const options = overrides.resolver ? { ...this.options, resolver: overrides.resolver } : this.options;
    const listener: Listener = new Listener(options, this.totals, () => this.sessions.delete(listener));
    this.sessions.add(listener);
    await listener.listen();
    return listener;
  }

  /** Closes every listener and connection. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
    await this.main.close();
  }
}

/** Chromium flags that make the proxy the only way out, loopback included. */
export function proxyLaunchArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    // Chromium bypasses proxies for loopback by default; `<-loopback>` removes that exception.
    "--proxy-bypass-list=<-loopback>",
    // WebRTC may otherwise send UDP directly; QUIC (UDP) would ignore an HTTP proxy.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-quic",
  ];
}
