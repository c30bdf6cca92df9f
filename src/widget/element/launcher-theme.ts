import { createFlowClient } from '../transport/index'

export interface LauncherTheme {
  /** Launcher background (the flow's button colour). */
  background?: string
  /** Icon colour (the flow's button text colour). */
  color?: string
  /** The flow's name, for the launcher's accessible name. */
  name?: string
}

/** Only real colour values reach the stylesheet: the theme is data from the service. */
const colour = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length < 100 && CSS.supports('color', value) ? value : undefined

/**
 * Reads the published flow to theme a launcher before any session exists. Failing is harmless:
 * the launcher keeps its default colours and the chat reports errors itself once opened.
 */
export async function fetchLauncherTheme(host: Element, signal: AbortSignal): Promise<LauncherTheme> {
  const flow = host.getAttribute('flow') ?? ''
  if (!flow) return {}
  const client = createFlowClient({
    apiHost: host.getAttribute('api-host') ?? '',
    token: host.getAttribute('token') ?? '',
    retry: { retries: 1, baseDelayMs: 500, maxDelayMs: 2000 },
  })
  try {
    const { publishedFlow } = await client.getPublishedFlow(flow, signal)
    const buttons = publishedFlow.theme?.chat?.buttons
    // The contract's published flow has no name; the share page title is the owner's next best.
    const name = (publishedFlow as { name?: unknown }).name ?? publishedFlow.settings?.metadata?.title
    return {
      background: colour(buttons?.backgroundColor),
      color: colour(buttons?.color),
      name: typeof name === 'string' && name.trim() ? name.trim().slice(0, 80) : undefined,
    }
  } catch {
    return {}
  }
}

/** Sets a colour custom property on `host`, or removes it when the value is not a valid colour. */
function setColour(host: HTMLElement, property: string, value: string | null | undefined): void {
  if (value && CSS.supports('color', value)) host.style.setProperty(property, value)
  else host.style.removeProperty(property)
}

/** The colours a page sets on the element itself (attributes), above the flow's theme. */
export function applyPageColours(host: HTMLElement): void {
  setColour(host, '--fc-launcher-bg', host.getAttribute('button-color'))
  setColour(host, '--fc-launcher-color', host.getAttribute('icon-color'))
}

/**
 * Fetches the flow's theme for a launcher or a popup and applies its button colours under the
 * page's own `--fc-launcher-*`; `onName` receives the flow's name. Aborting the signal drops it.
 */
export function loadLauncherTheme(host: HTMLElement, signal: AbortSignal, onName: (name: string) => void): void {
  void fetchLauncherTheme(host, signal).then((theme) => {
    if (signal.aborted) return
    setColour(host, '--fc-theme-bg', theme.background)
    setColour(host, '--fc-theme-color', theme.color)
    onName(theme.name ?? '')
  })
}
