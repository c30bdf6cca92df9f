import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

export const LAUNCH_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * A Chromium to drive, without downloading one: `CHROMIUM_PATH`, else Debian's package, else the
 * binary shipped inside the `@sparticuz/chromium` dev dependency.
 */
export async function findChromium(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH?.trim()
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points to ${fromEnv}, which does not exist`)
    return fromEnv
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  try {
    const { default: packaged } = await import('@sparticuz/chromium')
    return await packaged.executablePath()
  } catch (error) {
    throw new Error(
      `No Chromium found: set CHROMIUM_PATH, install Debian's chromium, or run npm ci to get @sparticuz/chromium (${String(error)})`,
    )
  }
}

export interface LaunchedBrowser {
  context: BrowserContext
  close(): Promise<void>
}

/** Launches with a fresh profile directory of its own, removed again on close. */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const executablePath = await findChromium()
  const profile = mkdtempSync(join(tmpdir(), 'flow-chat-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: LAUNCH_FLAGS,
    viewport: { width: 1000, height: 800 },
    // Bubbles fade in; under load axe can measure a bubble's contrast mid-fade and report a
    // failure the visitor never sees. Reduced motion (which the widget honours) removes the fade.
    reducedMotion: 'reduce',
  })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
