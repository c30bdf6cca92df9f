/**
 * The launchers chunk: what a `<flow-chat-bubble>` or `<flow-chat-popup>` is, loaded lazily beside
 * the core script when the first one connects (see launcher-element.ts): its property table (the
 * accessors, the attributes it watches, the options of FlowChat.init*) and its window.
 */
import type { FlowChatElementOptions } from '../flow-chat-element'
import type { LauncherBehaviour, LauncherClass, LauncherKind } from '../launcher-behaviour'
import { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from '../launcher-properties'
import { applyOptions, defineProperties, observedAttributes, upgradeProperties } from '../properties'
import { Bubble } from './bubble'
import type { LauncherBase } from './launcher-base'
import { Popup } from './popup'

const attached = new WeakMap<HTMLElement, LauncherBase>()
const withAccessors = new WeakSet<object>()

/** Gives `host` its properties and behaviour (once), then connects it; returns its behaviour. */
export function attach(kind: LauncherKind, host: HTMLElement, options: FlowChatElementOptions): LauncherBehaviour {
  let behaviour = attached.get(host)
  if (!behaviour) {
    const table = kind === 'bubble' ? BUBBLE_PROPERTIES : POPUP_PROPERTIES
    const prototype = Object.getPrototypeOf(host) as HTMLElement
    if (!withAccessors.has(prototype)) {
      defineProperties(prototype, table)
      withAccessors.add(prototype)
    }
    // FlowChat.init* options first: what the page set on the element since then wins over them.
    const { pendingOptions } = host.constructor as unknown as LauncherClass
    const pending = pendingOptions.get(host)
    pendingOptions.delete(host)
    if (pending) applyOptions(host, table, pending)
    upgradeProperties(host, table)
    const created = (behaviour = kind === 'bubble' ? new Bubble(host, options) : new Popup(host, options))
    attached.set(host, created)
    new MutationObserver((records) => {
      for (const { attributeName, oldValue } of records) {
        if (attributeName && host.getAttribute(attributeName) !== oldValue) created.attributeChanged(attributeName)
      }
    }).observe(host, { attributes: true, attributeOldValue: true, attributeFilter: observedAttributes(table) })
  }
  behaviour.connected()
  return behaviour
}
