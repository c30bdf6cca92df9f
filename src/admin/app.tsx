import { signal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import { FlowList } from './flows/flow-list'
import { FlowPanel } from './flows/flow-panel'
import { START_TITLE_ID, StartPanel } from './flows/start-panel'
import { resetInbox, waitingCount } from './inbox/inbox-state'
import { InboxAnnouncements, InboxView, useInbox } from './inbox/inbox-view'
import { PrivacyView } from './privacy/privacy-view'
import { announce, announcement, isAgent, signOut, token } from './session'
import { SignIn } from './sign-in'
import { TokensPanel } from './tokens-panel'
import { clearWorkspace, flows, loadWorkspace, openFlowId, reloadFlows, workspaceError, workspaceId } from './workspace'

/** The console: the sign-in form, or the workspace's flows and the one opened, or the team's inbox. */
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

/** After the panel it was on is replaced, focus goes to `selector` (a heading, a list entry) instead of being lost. */
const focusNext = (selector: string) => requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())

/** Closes the flow's panel, and gives focus back to the list entry it was opened from. */
function closeFlow() {
  const id = openFlowId.value
  openFlowId.value = null
  focusNext(`[data-flow-id="${CSS.escape(id ?? '')}"]`)
}

/** Closes any flow's panel and brings the owner to creating one. */
function newFlow() {
  openFlowId.value = null
  focusNext(`#${START_TITLE_ID}`)
}

/** Which of the console's two views is shown (an agent token sees the inbox only). */
export const view = signal<'flows' | 'inbox' | 'privacy'>('flows')

function Workspace() {
  const title = useRef<HTMLHeadingElement>(null)
  // Signing in removes the form that had focus: it goes to the page's heading instead of being lost.
  useEffect(() => {
    title.current?.focus()
    // The inbox reads the workspace's tokens too (the agents to hand a conversation to).
    if (!isAgent.value) void loadWorkspace()
    return () => {
      resetInbox()
      clearWorkspace()
    }
  }, [])
  useInbox()

  const showInbox = isAgent.value || view.value === 'inbox'
  const waiting = waitingCount.value
  return (
    <>
      <header class="top">
        <h1 tabIndex={-1} ref={title}>
          {isAgent.value ? 'Team inbox' : 'Flow console'}
        </h1>
        {workspaceId.value && <p class="workspace">Workspace {workspaceId.value}</p>}
        {!isAgent.value && (
          <nav class="views" aria-label="Views">
            <button type="button" aria-current={view.value === 'flows' ? 'page' : undefined} onClick={() => (view.value = 'flows')}>
              Flows
            </button>
            <button type="button" aria-current={showInbox ? 'page' : undefined} onClick={() => (view.value = 'inbox')}>
              Inbox{waiting > 0 && ` (${waiting} waiting)`}
            </button>
            <button type="button" aria-current={view.value === 'privacy' ? 'page' : undefined} onClick={() => (view.value = 'privacy')}>
              Privacy
            </button>
          </nav>
        )}
        <button
          type="button"
          onClick={() => {
            signOut()
            view.value = 'flows'
            announce('Signed out.')
          }}
        >
          Sign out
        </button>
      </header>
      <InboxAnnouncements />
      {showInbox ? (
        <main class="layout inbox-layout">
          <InboxView />
        </main>
      ) : view.value === 'privacy' ? (
        <main class="layout privacy-layout">
          <PrivacyView />
        </main>
      ) : (
        <Flows />
      )}
    </>
  )
}

function Flows() {
  const open = flows.value?.find((flow) => flow.id === openFlowId.value)
  return (
    <main class="layout">
      {workspaceError.value && (
        <p class="error" role="alert">
          {workspaceError.value}
        </p>
      )}
      <div class="side">
        <FlowList flows={flows.value} openId={openFlowId.value} onOpen={(id) => (openFlowId.value = id)} onNew={newFlow} />
        <TokensPanel />
      </div>
      {flows.value && (open ? <FlowPanel key={open.id} flow={open} onChanged={reloadFlows} onClose={closeFlow} /> : <StartPanel />)}
    </main>
  )
}
