import { isIP } from 'node:net'
import type { AiConfig } from './ai/ai-config'

/**
 * Reads the environment for config.ts, one variable at a time: a value that is unset or blank
 * takes its default, and a malformed one adds a problem naming the variable and what it must be
 * (all of them are reported together at start) and also takes its default, so reading goes on.
 */
export type Env = Record<string, string | undefined>

const MAX_PROXY_HOPS = 16

export class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  /** Unset and blank values both mean "use the default". */
  string(name: string): string | undefined {
    const value = this.env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  /** An interface to listen on: an IP address or a host name. */
  host(name: string, fallback: string): string {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    const bare = raw.replace(/^\[(.*)\]$/, '$1')
    if (isIP(bare) === 0 && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(bare)) {
      this.problems.push(`${name} must be an IP address or a host name to listen on, such as 127.0.0.1 or 0.0.0.0 (got "${raw}")`)
      return fallback
    }
    return bare
  }

  /** A value that must be set (when the feature needing it is on). */
  required(name: string): string {
    const value = this.string(name)
    if (value === undefined) this.problems.push(`${name} must be set`)
    return value ?? ''
  }

  /** One of `values`. */
  choice<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    if (!(values as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${values.join(', ')} (got "${raw}")`)
      return fallback
    }
    return raw as T
  }

  /** Comma-separated entries, blanks dropped. */
  list(name: string): string[] {
    return (this.string(name) ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name)
    if (raw === undefined) return fallback
    const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`)
      return fallback
    }
    return value
  }

  /** An absolute http(s) base address without credentials, query or fragment; no trailing slash. */
  baseUrl(name: string): string | undefined {
    const raw = this.string(name)
    if (raw === undefined) return undefined
    let url: URL | undefined
    try {
      url = new URL(raw)
    } catch {
      url = undefined
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
      this.problems.push(`${name} must be an http(s) address such as https://chat.example.com (got "${raw}")`)
      return undefined
    }
    return url.href.replace(/\/+$/, '')
  }

  /**
   * A provider's service-wide key and address. An address without a key is refused: set any key
   * for a local server that checks none, so that a block's missing credentials stay visible.
   */
  aiKey(provider: 'openai' | 'mistral', keyName: string, urlName: string): AiConfig['defaults'] {
    const apiKey = this.string(keyName)
    const baseUrl = this.baseUrl(urlName)
    if (apiKey === undefined) {
      if (baseUrl !== undefined) this.problems.push(`${urlName} needs ${keyName} too (any value for a server that checks no key)`)
      return {}
    }
    return { [provider]: baseUrl === undefined ? { apiKey } : { apiKey, baseUrl } }
  }

  /** `false`/`true` (no proxy / one proxy) or the number of trusted proxy hops. */
  hops(name: string, fallback: number): number {
    const raw = this.string(name)?.toLowerCase()
    if (raw === undefined) return fallback
    if (/^\d{1,2}$/.test(raw) && Number(raw) <= MAX_PROXY_HOPS) return Number(raw)
    if (['true', 'yes', 'on'].includes(raw)) return 1
    if (['false', 'no', 'off'].includes(raw)) return 0
    this.problems.push(`${name} must be false, true or a number of proxies from 0 to ${MAX_PROXY_HOPS} (got "${raw}")`)
    return fallback
  }
}
