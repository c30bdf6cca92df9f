import { effect } from '@preact/signals-core'
import { h, render } from 'preact'
import {
  type ActionRunners,
  type Conversation,
  type ConversationMemory,
  chunkFailure,
  createConversation,
  DEFAULT_ACTION_RUNNERS,
  type Emit,
  lazyRunner,
  refuseCommand,
  widgetWarning,
} from '../chat/index'
import { createLocale } from '../i18n/locale'
import { createFlowClient, type FetchLike } from '../transport/index'
import { CHAT_PROPERTIES } from './chat-properties'
import { loadChatView, preloadThemeParts, showUnavailable } from './chat-view'
import { claimConversationKey, conversationKey, createConversationStorage, forgetConversation } from './conversation-storage'
import { createEmitter } from './emitter'
import { browserNavigate } from './navigate'
import { defineProperties, observedAttributes, type Properties, propertyOf, upgradeProperties } from './properties'
import type { ScriptHost } from './scripts'
import { adoptStyles, type StyleTarget } from './stylesheets'

export interface FlowChatElementOptions {
  /** Client action runners by type, over the built-in ones (scripts run in the sandboxed frame). */
  actions?: ActionRunners
  /** For tests and instrumented pages; defaults to the global `fetch` at call time. */
  fetch?: FetchLike
}

/** Public surface of `<flow-chat>` beyond HTMLElement: its properties (chat-properties.ts) and commands. */
export interface FlowChatElement extends HTMLElement, Properties<typeof CHAT_PROPERTIES> {
  /** Forgets the current (and remembered) conversation and starts a new one. */
  reset(): void
  /** Starts again from storage: a flow that remembers users resumes where the visitor was. */
  reload(): void
  /** Types into the waiting text field, as the visitor would; false when no input is waiting. */
  setInputValue(value: string): boolean
  /** Sends what is typed, as the send button does; false when nothing is. */
  submitInput(): boolean
  /**
   * Runs the flow's `command` event named `name`, after the answer in flight if any. Resolves
   * once the service took it; rejects (after a `flowchat:error` with code `command-rejected`, or
   * the failure's own code) when the flow has no such command or the chat cannot take one now.
   */
  sendCommand(name: string): Promise<void>
}

/**
 * Creates the element class. Done in a function, not at module level, so importing the library
 * never touches `HTMLElement` (Node, server rendering) until the page asks for the element.
 */
export function createFlowChatElement(options: FlowChatElementOptions = {}): new () => FlowChatElement {
  const extraActions = options.actions ?? {}

  class FlowChat extends HTMLElement {
    static observedAttributes = observedAttributes(CHAT_PROPERTIES)

    #styles: StyleTarget | undefined
    #mount: HTMLElement | undefined
    #conversation: Conversation | undefined
    #scripts: ScriptHost | undefined
    /** Its custom states (`:state(unavailable)`), where the browser has them. */
    #internals = this.attachInternals?.()
    #scheduled = false
    #memory: ConversationMemory | undefined
    /** Renders the chat again; `language`: with its language read again first. */
    #render: ((language?: boolean) => void) | undefined
    /** Releases what the current conversation holds (set while one runs). */
    #teardown: (() => void) | undefined

    connectedCallback() {
      upgradeProperties(this, CHAT_PROPERTIES)
      if (!this.#conversation) this.#schedule()
    }

    disconnectedCallback() {
      // Deferred: a node moved within the page is disconnected and reconnected in one task, and
      // should keep its conversation. Really removed, it releases everything.
      queueMicrotask(() => {
        if (!this.isConnected) this.#teardown?.()
      })
    }

    attributeChangedCallback(name: string, previous: string | null, next: string | null) {
      if (previous === next) return
      const roles: readonly string[] | undefined = propertyOf(CHAT_PROPERTIES, name)?.roles
      // The next script gets a fresh sandbox with the new settings; the conversation goes on.
      if (roles?.includes('scripts')) this.#scripts?.dispose()
      if (roles?.includes('renders')) this.#render?.(roles.includes('language'))
      if (roles?.includes('restarts') && this.#conversation) this.#schedule()
    }

    reset() {
      if (!this.isConnected) return
      // Forget first: what starts must not resume what the visitor asked to leave behind.
      if (this.#memory) this.#memory.clear()
      else forgetConversation(this.#own.flow, this.#own.storageKey)
      this.#schedule()
    }

    reload() {
      if (this.isConnected) this.#schedule()
    }

    setInputValue(value: string): boolean {
      return this.#conversation?.setDraft(value) ?? false
    }

    submitInput(): boolean {
      return this.#conversation?.submitDraft() ?? false
    }

    sendCommand(name: string): Promise<void> {
      return this.#conversation?.command(name) ?? refuseCommand(createEmitter(this), name, 'the chat has not started')
    }

    /** This element's own properties, typed (the accessors come from the table, below). */
    get #own(): FlowChatElement {
      return this as unknown as FlowChatElement
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
      this.#teardown?.()
      const own = this.#own
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' })
      const styles = (this.#styles ??= adoptStyles(root))
      if (!this.#mount) {
        // Preact owns this node only, never the shadow root's other children (fallback <style>s).
        this.#mount = document.createElement('div')
        this.#mount.className = 'mount'
        root.append(this.#mount)
      }
      const emit = createEmitter(this)
      const claim = claimConversationKey(conversationKey(own.flow, own.storageKey), this)
      // The sandbox runner is a chunk of its own, requested when a step announces a script.
      const scripts = lazyRunner(async () => {
        const { createScriptHost } = await import('./scripts')
        this.#scripts = createScriptHost(root, emit, own)
        return this.#scripts.runner
      })
      const conversation = createConversation({
        flow: own.flow,
        client: createFlowClient({ apiHost: own.apiHost, chatApiHost: own.chatApiHost, token: own.token, fetch: options.fetch }),
        emit,
        prefilledVariables: own.prefilledVariables,
        user: own,
        actions: { ...DEFAULT_ACTION_RUNNERS, scriptToExecute: scripts, ...extraActions },
        navigate: (url, newTab) => browserNavigate(url, newTab, own.redirects),
        memory: (this.#memory = createConversationStorage(claim.key, emit)),
      })
      this.#conversation = conversation
      // The first requests leave first, then the views' chunk: everything below can wait for them.
      conversation.start()
      const views = loadChatView()
      const base = own.apiHost.trim() || undefined
      const stopEffects = effect(() => applyTheme(conversation, styles, emit, own.fonts, base))
      const mount = this.#mount
      // The page's own words are checked by a chunk: a mistake there is the page's to hear of, not every visitor's to download.
      if (own.strings)
        import('./check-strings').then(
          ({ checkStrings }) => checkStrings(own.strings, emit),
          () => {},
        )
      this.#teardown = () => {
        conversation.dispose()
        this.#scripts?.dispose()
        stopEffects()
        claim.release()
        render(null, mount)
        // A notice shown in place of views that could not load is not Preact's to remove.
        mount.replaceChildren()
        this.#conversation = this.#scripts = this.#render = this.#teardown = undefined
      }
      // The chat's translation is requested now too; the chat renders once its views are here.
      let locale = createLocale(this, own.dir, own.strings)
      views.then(
        ({ App, BASE_CSS }) => {
          if (this.#conversation !== conversation) return
          styles.setViews(BASE_CSS)
          this.#render = (language) => {
            if (language) locale = createLocale(this, own.dir, own.strings)
            render(
              h(App, { conversation, emit, label: own.label, base, locale, colorScheme: own.colorScheme, states: this.#internals?.states }),
              mount,
            )
          }
          this.#render()
        },
        (error: unknown) => {
          if (this.#conversation !== conversation) return
          emit('flowchat:log', chunkFailure('chat view', error))
          showUnavailable(mount)
        },
      )
    }
  }
  defineProperties(FlowChat.prototype, CHAT_PROPERTIES)
  return FlowChat as unknown as new () => FlowChatElement
}

/** Theme parts that live outside the Preact tree: the scoped custom CSS and the web font. */
function applyTheme(conversation: Conversation, styles: StyleTarget, emit: Emit, fonts: string, base: string | undefined): void {
  const theme = conversation.publishedFlow.value?.theme
  styles.setCustomCss(theme?.customCss ?? '')
  preloadThemeParts(theme)
  const font = theme?.general?.font
  if (!font) return
  // Font loading is a chunk of its own: most of the widget shows before the font is in anyway.
  import('./fonts')
    .then(({ loadFontOf }) => loadFontOf(font, fonts, base))
    .catch((error: unknown) =>
      emit(
        'flowchat:log',
        widgetWarning('font-load-failed', "The theme's font could not be loaded; the system font is used", { error: String(error) }),
      ),
    )
}
