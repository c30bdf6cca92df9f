import { effect } from '@preact/signals'
import { h, render } from 'preact'
import {
  DEFAULT_ACTION_RUNNERS,
  createConversation,
  scriptActionRunner,
  widgetWarning,
  type ActionRunners,
  type Conversation,
  type ConversationMemory,
  type Emit,
} from '../chat/index'
import { createFlowClient, type FetchLike } from '../transport/index'
import { SCRIPT_TIMEOUT_MS } from '../../protocol/time-limits'
import { App, fontRequest } from '../ui/index'
import { createEmitter } from './emitter'
import { loadThemeFont } from './font-loader'
import { browserNavigate } from './navigate'
import { claimConversationKey, conversationKey, createConversationStorage, forgetConversation } from './conversation-storage'
import { createScriptHost, defaultSandboxUrl, parseScriptTimeout, type ScriptHost } from './script-host'
import { adoptStyles, type StyleTarget } from './stylesheets'

export interface FlowChatElementOptions {
  /** Client action runners by type, over the built-in ones (scripts run in the sandboxed frame). */
  actions?: ActionRunners
  /** For tests and instrumented pages; defaults to the global `fetch` at call time. */
  fetch?: FetchLike
}

/** Public surface of `<flow-chat>` beyond HTMLElement. */
export interface FlowChatElement extends HTMLElement {
  flow: string
  apiHost: string
  chatApiHost: string
  token: string
  prefilledVariables: Record<string, string | number | boolean> | undefined
  /** The script sandbox document; defaults to `/sandbox/v1/sandbox.html` on the chat API host. */
  sandboxUrl: string
  /** Per-script time limit in milliseconds (default 10 000). */
  scriptTimeout: number
  /** Lets flow scripts make network requests (never with the page's credentials). */
  allowScriptNetwork: boolean
  /** The chat's accessible name (default "Chat"); name each chat when a page has several. */
  label: string
  /**
   * Names this chat's remembered conversation (with the flow): default the element's `id`, else
   * "default". Two chats of one flow on a page need different names to keep apart after reloads.
   */
  storageKey: string
  /** Forgets the current (and remembered) conversation and starts a new one. */
  restart(): void
  /** Starts again from storage: a flow that remembers users resumes where the visitor was. */
  reload(): void
}

const ATTRIBUTES = {
  flow: 'flow',
  apiHost: 'api-host',
  chatApiHost: 'chat-api-host',
  token: 'token',
  storageKey: 'storage-key',
} as const
/** Read when a script runs, not when a conversation starts: changing them restarts nothing. */
const SCRIPT_ATTRIBUTES = { sandboxUrl: 'sandbox-url', scriptTimeout: 'script-timeout', allowScriptNetwork: 'allow-script-network' } as const
const SCRIPT_ATTRIBUTE_NAMES: ReadonlySet<string> = new Set(Object.values(SCRIPT_ATTRIBUTES))
const UPGRADED_PROPERTIES = [...Object.keys(ATTRIBUTES), ...Object.keys(SCRIPT_ATTRIBUTES), 'label', 'prefilledVariables']

/**
 * Creates the element class. Done in a function, not at module level, so importing the library
 * never touches `HTMLElement` (Node, server rendering) until the page asks for the element.
 */
export function createFlowChatElement(options: FlowChatElementOptions = {}): new () => FlowChatElement {
  const extraActions = options.actions ?? {}

  class FlowChat extends HTMLElement implements FlowChatElement {
    static observedAttributes = [...Object.values(ATTRIBUTES), ...SCRIPT_ATTRIBUTE_NAMES, 'label']

    #prefilled: FlowChatElement['prefilledVariables']
    #styles: StyleTarget | undefined
    #mount: HTMLElement | undefined
    #conversation: Conversation | undefined
    #stopEffects: (() => void) | undefined
    #scripts: ScriptHost | undefined
    #scheduled = false
    #releaseKey: (() => void) | undefined
    #memory: ConversationMemory | undefined
    #render: (() => void) | undefined

    get flow() {
      return this.getAttribute(ATTRIBUTES.flow) ?? ''
    }
    set flow(value: string) {
      this.setAttribute(ATTRIBUTES.flow, String(value))
    }
    get apiHost() {
      return this.getAttribute(ATTRIBUTES.apiHost) ?? ''
    }
    set apiHost(value: string) {
      this.setAttribute(ATTRIBUTES.apiHost, String(value))
    }
    get chatApiHost() {
      return this.getAttribute(ATTRIBUTES.chatApiHost) ?? ''
    }
    set chatApiHost(value: string) {
      this.setAttribute(ATTRIBUTES.chatApiHost, String(value))
    }
    get token() {
      return this.getAttribute(ATTRIBUTES.token) ?? ''
    }
    set token(value: string) {
      this.setAttribute(ATTRIBUTES.token, String(value))
    }
    get storageKey() {
      return this.getAttribute(ATTRIBUTES.storageKey)?.trim() || this.id || 'default'
    }
    set storageKey(value: string) {
      this.setAttribute(ATTRIBUTES.storageKey, String(value))
    }
    get label() {
      return this.getAttribute('label')?.trim() || 'Chat'
    }
    set label(value: string) {
      this.setAttribute('label', String(value))
    }
    get sandboxUrl() {
      const origin = typeof location === 'undefined' ? '' : location.origin
      return this.getAttribute(SCRIPT_ATTRIBUTES.sandboxUrl)?.trim() || defaultSandboxUrl(this.chatApiHost, this.apiHost, origin)
    }
    set sandboxUrl(value: string) {
      this.setAttribute(SCRIPT_ATTRIBUTES.sandboxUrl, String(value))
    }
    get scriptTimeout() {
      return parseScriptTimeout(this.getAttribute(SCRIPT_ATTRIBUTES.scriptTimeout)) ?? SCRIPT_TIMEOUT_MS.default
    }
    set scriptTimeout(value: number) {
      this.setAttribute(SCRIPT_ATTRIBUTES.scriptTimeout, String(value))
    }
    get allowScriptNetwork() {
      return this.hasAttribute(SCRIPT_ATTRIBUTES.allowScriptNetwork)
    }
    set allowScriptNetwork(value: boolean) {
      this.toggleAttribute(SCRIPT_ATTRIBUTES.allowScriptNetwork, Boolean(value))
    }
    /** Read when a conversation starts; set it before connecting (or call `restart()` after). */
    get prefilledVariables() {
      return this.#prefilled
    }
    set prefilledVariables(value) {
      this.#prefilled = value
    }

    connectedCallback() {
      this.#upgradeProperties()
      if (!this.#conversation) this.#schedule()
    }

    disconnectedCallback() {
      // Deferred: a node moved within the page is disconnected and reconnected in one task, and
      // should keep its conversation. Really removed, it releases everything.
      queueMicrotask(() => {
        if (!this.isConnected) this.#teardown()
      })
    }

    attributeChangedCallback(name: string, previous: string | null, next: string | null) {
      if (previous === next) return
      // The next script gets a fresh sandbox with the new settings; the conversation goes on.
      if (SCRIPT_ATTRIBUTE_NAMES.has(name)) this.#scripts?.dispose()
      else if (name === 'label') this.#render?.()
      else if (this.#conversation) this.#schedule()
    }

    restart() {
      if (!this.isConnected) return
      // Forget first: the restart must not resume what the visitor asked to leave behind.
      if (this.#memory) this.#memory.clear()
      else forgetConversation(this.flow, this.storageKey)
      this.#schedule()
    }

    reload() {
      if (this.isConnected) this.#schedule()
    }

    /** Several attribute changes in one task (a framework setting all props) start once. */
    #schedule() {
      if (this.#scheduled) return
      this.#scheduled = true
      queueMicrotask(() => {
        this.#scheduled = false
        if (this.isConnected) this.#start()
      })
    }

    #start() {
      this.#teardown()
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' })
      const styles = (this.#styles ??= adoptStyles(root))
      if (!this.#mount) {
        // Preact owns this node only, never the shadow root's other children (fallback <style>s).
        this.#mount = document.createElement('div')
        this.#mount.className = 'mount'
        root.append(this.#mount)
      }
      const emit = createEmitter(this)
      const flow = this.flow
      const claim = claimConversationKey(conversationKey(flow, this.storageKey), this)
      this.#releaseKey = claim.release
      const scripts = createScriptHost(root, emit, () => ({
        sandboxUrl: this.sandboxUrl,
        timeoutMs: parseScriptTimeout(this.getAttribute(SCRIPT_ATTRIBUTES.scriptTimeout)),
        allowNetwork: this.allowScriptNetwork,
      }))
      this.#scripts = scripts
      const conversation = createConversation({
        flow,
        client: createFlowClient({
          apiHost: this.apiHost,
          chatApiHost: this.chatApiHost,
          token: this.token,
          fetch: options.fetch,
        }),
        emit,
        prefilledVariables: this.#prefilled,
        actions: { ...DEFAULT_ACTION_RUNNERS, scriptToExecute: scriptActionRunner(scripts.run), ...extraActions },
        navigate: browserNavigate,
        memory: (this.#memory = createConversationStorage(claim.key, emit)),
      })
      this.#conversation = conversation
      this.#stopEffects = effect(() => applyTheme(conversation, styles, emit))
      const mount = this.#mount
      this.#render = () => render(h(App, { conversation, emit, label: this.label }), mount)
      this.#render()
      conversation.start()
    }

    #teardown() {
      this.#conversation?.dispose()
      this.#conversation = undefined
      this.#scripts?.dispose()
      this.#scripts = undefined
      this.#stopEffects?.()
      this.#stopEffects = undefined
      this.#releaseKey?.()
      this.#releaseKey = undefined
      this.#render = undefined
      if (this.#mount) render(null, this.#mount)
    }

    /** A property set before the element was defined shadows the accessor: move it onto it. */
    #upgradeProperties() {
      for (const name of UPGRADED_PROPERTIES) {
        if (Object.prototype.hasOwnProperty.call(this, name)) {
          const value = (this as Record<string, unknown>)[name]
          delete (this as Record<string, unknown>)[name]
          ;(this as Record<string, unknown>)[name] = value
        }
      }
    }
  }
  return FlowChat
}

/** Theme parts that live outside the Preact tree: the scoped custom CSS and the web font. */
function applyTheme(conversation: Conversation, styles: StyleTarget, emit: Emit): void {
  const theme = conversation.publishedFlow.value?.theme
  styles.setCustomCss(theme?.customCss ?? '')
  const font = fontRequest(theme?.general?.font)
  if (!font) return
  loadThemeFont(font).catch((error: unknown) =>
    emit('flowchat:log', widgetWarning('font-load-failed', `The font "${font.family}" could not be loaded; the system font is used`, { error: String(error) })),
  )
}
