/**
 * One declaration per element property: its attribute, the kind of value it holds, what it falls
 * back to and what changing it does. Accessors, `observedAttributes`, the upgrade of properties
 * set before the element was defined, what a launcher hands to its chat, the FlowChat options and
 * the JSX attribute types all follow from the tables (chat-properties.ts, launcher-properties.ts),
 * so adding an option is one line there.
 */

import type { PrefilledVariables } from '../../protocol/chat'

/** What changing a property does. */
export type PropertyRole =
  /** `<flow-chat>`: a new conversation starts (several changes in one task start once). */
  | 'restarts'
  /** `<flow-chat>`: the next script runs in a fresh sandbox with the new value. */
  | 'scripts'
  /**
   * What the chat shows, not what it runs (its name, language, direction, colour scheme): rendered
   * again (a launcher's title and labels too), nothing restarts.
   */
  | 'renders'
  /** The chat's language is read again (its words and direction) before it renders again. */
  | 'language'
  /** A launcher reads the flow's theme again (its colours and name). */
  | 'launcher-theme'
  /** A bubble fills its preview message again. */
  | 'preview'
  /** A bubble changes its launcher's icon. */
  | 'icon'

export interface PropertySpec {
  /** The attribute it mirrors; absent for a property only (an object). */
  readonly attribute?: string
  /**
   * `text`, `url` (checked where it is used), `number` (a finite number, at least `min`),
   * `length` (CSS length or pixels), `integer` (a z-index), `colour`, `boolean` (present or
   * absent), `choice` (one of `choices`), `object` (a property only: see ObjectProperty).
   */
  readonly kind: 'text' | 'url' | 'number' | 'length' | 'integer' | 'colour' | 'boolean' | 'choice' | 'object'
  readonly choices?: readonly string[]
  readonly min?: number
  /** The value when the attribute is absent, empty or invalid. */
  readonly fallback?: (element: HTMLElement) => string | number
  readonly roles?: readonly PropertyRole[]
  /** The custom property a launcher sets from it (only valid values reach the style). */
  readonly style?: string
}

export type PropertyTable = Readonly<Record<string, PropertySpec>>

/** An `object` property holding a `T`: `{ kind: 'object' } as ObjectProperty<T>` (`holds` is a type only). */
export type ObjectProperty<T> = { readonly kind: 'object'; readonly holds?: T }

/** Prefilled variables: what `startChat` accepts. */
export type { PrefilledVariables }

type PropertyValue<S> = S extends { kind: 'boolean' }
  ? boolean
  : S extends { kind: 'number' }
    ? number
    : S extends { kind: 'object'; holds?: infer T }
      ? T | undefined
      : S extends { kind: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string

type AttributeValue<S> = S extends { kind: 'boolean' }
  ? boolean
  : S extends { kind: 'number' | 'integer' }
    ? number | string
    : S extends { kind: 'length' }
      ? LengthValue
      : S extends { kind: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string

/** A CSS length (`"24rem"`, `"70vh"`), or a number of pixels. */
export type LengthValue = string | number

/** The properties an element has from its table. */
export type Properties<T extends PropertyTable> = { -readonly [K in keyof T]: PropertyValue<T[K]> }

/** The attributes of an element, as markup writes them, plus its property-only entries (JSX sets those as properties). */
export type Attributes<T extends PropertyTable> = {
  [K in keyof T as T[K] extends { attribute: infer A extends string } ? A : K]?: T[K] extends { attribute: string }
    ? AttributeValue<T[K]>
    : PropertyValue<T[K]>
}

/** The options of FlowChat.init*: property names, values as the attributes take them. */
export type Options<T extends PropertyTable> = {
  [K in keyof T]?: T[K] extends { attribute: string } ? AttributeValue<T[K]> : PropertyValue<T[K]>
}

const objects = new WeakMap<HTMLElement, Map<string, unknown>>()

/** A property's value as the element reads it: the attribute's, or its fallback. */
export function readProperty(element: HTMLElement, name: string, spec: PropertySpec): unknown {
  if (spec.kind === 'object') return objects.get(element)?.get(name)
  if (spec.kind === 'boolean') return element.hasAttribute(spec.attribute!)
  const raw = element.getAttribute(spec.attribute!)
  const trimmed = raw?.trim()
  const fallback = () => spec.fallback?.(element) ?? ''
  if (spec.kind === 'number') {
    const value = trimmed ? Number(trimmed) : Number.NaN
    return Number.isFinite(value) && value >= (spec.min ?? -Infinity) ? value : fallback()
  }
  if (spec.kind === 'choice') return spec.choices?.includes(trimmed!) ? trimmed : fallback()
  if (spec.fallback) return trimmed || fallback()
  return raw ?? ''
}

/** Sets a property: its attribute (booleans present or absent), or the element's own slot for an object. */
export function writeProperty(element: HTMLElement, name: string, spec: PropertySpec, value: unknown): void {
  if (spec.kind === 'object') {
    const slots = objects.get(element) ?? new Map<string, unknown>()
    objects.set(element, slots.set(name, value))
  } else if (spec.kind === 'boolean') element.toggleAttribute(spec.attribute!, Boolean(value))
  else if (value === undefined || value === null) element.removeAttribute(spec.attribute!)
  else element.setAttribute(spec.attribute!, String(value))
}

/** Accessors for every property of `table` on an element class's prototype. */
export function defineProperties(prototype: HTMLElement, table: PropertyTable): void {
  for (const [name, spec] of Object.entries(table)) {
    Object.defineProperty(prototype, name, {
      configurable: true,
      enumerable: true,
      get(this: HTMLElement) {
        return readProperty(this, name, spec)
      },
      set(this: HTMLElement, value: unknown) {
        writeProperty(this, name, spec, value)
      },
    })
  }
}

export const observedAttributes = (table: PropertyTable): string[] =>
  Object.values(table).flatMap((spec) => (spec.attribute ? [spec.attribute] : []))

/** The property an attribute mirrors. */
export function propertyOf(table: PropertyTable, attribute: string): PropertySpec | undefined {
  return Object.values(table).find((spec) => spec.attribute === attribute)
}

/**
 * Properties set on the element before it was defined (a framework rendering before the script
 * loaded) are own data properties shadowing the accessors: moved onto them.
 */
export function upgradeProperties(element: HTMLElement, table: PropertyTable): void {
  for (const name of Object.keys(table)) {
    if (!Object.hasOwn(element, name)) continue
    const value = (element as unknown as Record<string, unknown>)[name]
    delete (element as unknown as Record<string, unknown>)[name]
    ;(element as unknown as Record<string, unknown>)[name] = value
  }
}

/**
 * Writes FlowChat options onto the element as its attributes and properties. Options may also come
 * as the text of a script tag's `data-*` attributes (`data-api-host` → `apiHost`): a boolean then
 * reads "false" as false, and an object cannot be one.
 */
export function applyOptions(element: HTMLElement, table: PropertyTable, options: Record<string, unknown>): void {
  for (const [name, spec] of Object.entries(table)) {
    let value = options[name]
    if (value === undefined || value === null || (spec.kind === 'object' && typeof value !== 'object')) continue
    if (spec.kind === 'boolean' && typeof value === 'string') value = value !== 'false'
    writeProperty(element, name, spec, value)
  }
}
