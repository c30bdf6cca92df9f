import { useSignal, useSignalEffect } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import type { FlowSummary } from '../protocol/management'
import { listFlows, listTokens } from '../protocol/management-api'
import { api, messageOf } from './api'
import { FlowList } from './flows/flow-list'
import { FlowPanel } from './flows/flow-panel'
import { announce, announcement, signOut, token } from './session'
import { SignIn } from './sign-in'
import { TokensPanel } from './tokens-panel'

/** The console: the sign-in form, or the workspace's flows and the one opened. */
export function App() {
  return (
    <>
      <p class="live" role="status" aria-live="polite">
        {announcement.value}
      </p>
      {token.value ? <Workspace /> : <SignIn />}
    </>
  )
}

/** Closes the flow's panel, and gives focus back to the list it was opened from. */
function close(openId: { value: string | null }) {
  const id = openId.value
  openId.value = null
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-flow-id="${CSS.escape(id ?? '')}"]`)?.focus())
}

function Workspace() {
  const flows = useSignal<FlowSummary[] | null>(null)
  const workspace = useSignal('')
  const openId = useSignal<string | null>(null)
  const error = useSignal<string | null>(null)
  const title = useRef<HTMLHeadingElement>(null)
  // Signing in removes the form that had focus: it goes to the page's heading instead of being lost.
  useEffect(() => title.current?.focus(), [])

  const reload = async () => {
    try {
      const [list, tokens] = await Promise.all([listFlows(api), listTokens(api)])
      flows.value = list
      workspace.value = tokens.workspaceId
      error.value = null
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  useSignalEffect(() => {
    if (token.value) void reload()
  })

  const open = flows.value?.find((flow) => flow.id === openId.value)
  return (
    <>
      <header class="top">
        <h1 tabIndex={-1} ref={title}>
          Flow console
        </h1>
        {workspace.value && <p class="workspace">Workspace {workspace.value}</p>}
        <button
          type="button"
          onClick={() => {
            signOut()
            announce('Signed out.')
          }}
        >
          Sign out
        </button>
      </header>
      <main class="layout">
        {error.value && (
          <p class="error" role="alert">
            {error.value}
          </p>
        )}
        <div class="side">
          <FlowList flows={flows.value} openId={openId.value} onOpen={(id) => (openId.value = id)} />
          <TokensPanel />
        </div>
        {open && <FlowPanel key={open.id} flow={open} onChanged={reload} onClose={() => close(openId)} />}
      </main>
    </>
  )
}
