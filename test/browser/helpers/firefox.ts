import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser } from 'puppeteer-core'

/** Debian's Firefox ESR (package firefox-esr), or `FIREFOX_PATH`. */
export function findFirefox(): string {
  const fromEnv = process.env.FIREFOX_PATH?.trim()
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`FIREFOX_PATH points to ${fromEnv}, which does not exist`)
    return fromEnv
  }
  for (const path of ['/usr/lib/firefox-esr/firefox-esr', '/usr/bin/firefox-esr', '/usr/bin/firefox']) if (existsSync(path)) return path
  throw new Error("No Firefox found: install Debian's firefox-esr (.ci/run does) or set FIREFOX_PATH")
}

export interface LaunchedFirefox {
  browser: Browser
  close(): Promise<void>
}

/**
 * Firefox driven over WebDriver BiDi by puppeteer-core, headless, with a fresh profile of its own
 * (removed again on close). Its own background traffic (updates, telemetry, safe browsing) is off:
 * this machine reaches no internet, and a test must see only the page's requests.
 */
export async function launchFirefox(): Promise<LaunchedFirefox> {
  const profile = mkdtempSync(join(tmpdir(), 'flow-chat-firefox-'))
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findFirefox(),
    headless: true,
    userDataDir: profile,
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
      'datareporting.healthreport.uploadEnabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      // Reduced motion, as the Chromium tests run: bubbles appear without their fade.
      'ui.prefersReducedMotion': 1,
    },
  })
  return {
    browser,
    async close() {
      await browser.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
