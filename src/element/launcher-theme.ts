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
    const name = (publishedFlow as { name?: unknown }).name
    return {
      background: colour(buttons?.backgroundColor),
      color: colour(buttons?.color),
      name: typeof name === 'string' && name.trim() ? name.trim().slice(0, 80) : undefined,
    }
  } catch {
    return {}
  }
}
