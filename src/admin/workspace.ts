import { batch, signal } from '@preact/signals'
import { type ApiToken, type FlowSummary, tokenHint } from '../protocol/management'
import { listFlows, listTokens } from '../protocol/management-api'
import { api, messageOf } from './api'

/**
 * The signed-in workspace as the console shows it: its id, its flows, its tokens, the flow that is
 * open, and the publishable token its previews and snippets carry. State as signals, changes as
 * the verbs below; views read the signals.
 */
export const workspaceId = signal<string | null>(null)
export const flows = signal<FlowSummary[] | null>(null)
export const tokens = signal<ApiToken[] | null>(null)
/** The flow whose panel is open; null shows the start panel (choose a flow, or create one). */
export const openFlowId = signal<string | null>(null)
export const workspaceError = signal<string | null>(null)
/** A publishable token of the workspace, for the preview and the snippets (see rememberPublishable). */
export const publishable = signal<string | null>(null)

/** Everything the console shows of the workspace, read again (after signing in, or a reload). */
export async function loadWorkspace(): Promise<void> {
  clearWorkspace()
  await Promise.all([reloadFlows(), reloadTokens()])
}

/** Forgets what the console showed of the workspace (signing out: the next token may be another's). */
export function clearWorkspace(): void {
  batch(() => {
    workspaceId.value = null
    flows.value = null
    tokens.value = null
    openFlowId.value = null
    publishable.value = null
    workspaceError.value = null
  })
}

export async function reloadFlows(): Promise<void> {
  try {
    flows.value = await listFlows(api)
    workspaceError.value = null
  } catch (caught) {
    workspaceError.value = messageOf(caught)
  }
}

/** The tokens, and the publishable token this browser remembers for the workspace if it is still one of them. */
export async function reloadTokens(): Promise<void> {
  try {
    const listed = await listTokens(api)
    batch(() => {
      workspaceId.value = listed.workspaceId
      tokens.value = listed.tokens
      publishable.value = recallPublishable(listed.workspaceId, listed.tokens)
    })
  } catch (caught) {
    workspaceError.value = messageOf(caught)
  }
}

/**
 * A publishable token the owner created or pasted is remembered in this browser's localStorage,
 * per workspace, so that every tab and later visit previews and embeds with it instead of asking
 * again. It is public by design (every page embedding a flow carries it, and it only reads
 * published flows), unlike the secret token, which stays in the tab (session.ts). The service
 * keeps no copy of its value: the console checks the one it remembers against the workspace's
 * token list (by id, else by its last four characters) and forgets it once revoked.
 * docs/decisions/2026-11-28-console-remembers-the-publishable-token.md
 */
const publishableKey = (workspace: string) => `flow-console:publishable:${workspace}`

interface Remembered {
  value: string
  id?: string
}

function recallPublishable(workspace: string, listed: readonly ApiToken[]): string | null {
  const saved = readRemembered(workspace)
  if (!saved) return null
  const live = listed.some(
    (item) => item.kind === 'publishable' && (saved.id ? item.id === saved.id : item.hint === tokenHint(saved.value)),
  )
  if (live) return saved.value
  writeRemembered(workspace, null)
  return null
}

/** Uses `value` (made by the console, with its `id`, or pasted) for previews and snippets, in every tab. */
export function rememberPublishable(value: string, id?: string): void {
  if (workspaceId.value) writeRemembered(workspaceId.value, { value, ...(id ? { id } : {}) })
  publishable.value = value
}

export function forgetPublishable(): void {
  if (workspaceId.value) writeRemembered(workspaceId.value, null)
  publishable.value = null
}

/** Whether `value` is one of the workspace's publishable tokens, as far as its last four characters tell. */
export const isListedPublishable = (value: string) =>
  tokens.value?.some((item) => item.kind === 'publishable' && item.hint === tokenHint(value)) ?? false

function readRemembered(workspace: string): Remembered | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(publishableKey(workspace)) ?? 'null') as Remembered | null
    return parsed && typeof parsed.value === 'string' ? parsed : null
  } catch {
    return null
  }
}

function writeRemembered(workspace: string, value: Remembered | null): void {
  try {
    if (value) localStorage.setItem(publishableKey(workspace), JSON.stringify(value))
    else localStorage.removeItem(publishableKey(workspace))
  } catch {
    // Storage refused (a private mode): the token serves this page's life.
  }
}
