import { describe, expect, it } from 'vitest'
import { CHAT_PROPERTIES } from '../../../src/widget/element/chat-properties'
import { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from '../../../src/widget/element/launcher-properties'
import {
  applyOptions,
  defineProperties,
  observedAttributes,
  type PropertyTable,
  readProperty,
  upgradeProperties,
} from '../../../src/widget/element/properties'

const TABLE = {
  title: { attribute: 'title-text', kind: 'text' },
  size: { attribute: 'size', kind: 'number', min: 1, fallback: () => 10 },
  side: { attribute: 'side', kind: 'choice', choices: ['left', 'right'], fallback: () => 'right' },
  open: { attribute: 'open-now', kind: 'boolean' },
  data: { kind: 'object' },
} as const satisfies PropertyTable

/** An element class with accessors from `TABLE`, as the elements get theirs. */
function element() {
  class Probe extends HTMLElement {}
  defineProperties(Probe.prototype, TABLE)
  const tag = `probe-${Math.random().toString(36).slice(2)}`
  customElements.define(tag, Probe)
  return document.createElement(tag) as HTMLElement & { title: string; size: number; side: string; open: boolean; data: unknown }
}

describe('a property table', () => {
  it('gives each entry an accessor mirroring its attribute, with its kind and fallback', () => {
    const probe = element()
    expect([probe.title, probe.size, probe.side, probe.open, probe.data]).toEqual(['', 10, 'right', false, undefined])
    probe.title = 'Hi'
    probe.size = 3
    probe.side = 'left'
    probe.open = true
    probe.data = { Name: 'Ada' }
    expect([
      probe.getAttribute('title-text'),
      probe.getAttribute('size'),
      probe.getAttribute('side'),
      probe.hasAttribute('open-now'),
    ]).toEqual(['Hi', '3', 'left', true])
    expect(probe.data).toEqual({ Name: 'Ada' })
    probe.setAttribute('size', '0')
    probe.setAttribute('side', 'top')
    expect([probe.size, probe.side]).toEqual([10, 'right'])
  })

  it('observes exactly its attributes and upgrades properties set before definition', () => {
    expect(observedAttributes(TABLE)).toEqual(['title-text', 'size', 'side', 'open-now'])
    const early = document.createElement('div') as HTMLElement & { size?: number }
    early.size = 5
    Object.defineProperty(Object.getPrototypeOf(early), 'size', {
      configurable: true,
      get(this: HTMLElement) {
        return readProperty(this, 'size', TABLE.size)
      },
      set(this: HTMLElement, value: unknown) {
        this.setAttribute('size', String(value))
      },
    })
    try {
      upgradeProperties(early, TABLE)
      expect(early.getAttribute('size')).toBe('5')
      expect(Object.hasOwn(early, 'size')).toBe(false)
    } finally {
      delete (Object.getPrototypeOf(early) as { size?: unknown }).size
    }
  })

  it('turns options and script-tag data attributes into attributes, booleans present or absent', () => {
    const probe = element()
    applyOptions(probe, TABLE, { title: 'Hi', size: 4, open: true, data: { Plan: 'pro' }, unknown: 'x' })
    expect([probe.getAttribute('title-text'), probe.getAttribute('size'), probe.hasAttribute('open-now'), probe.data]).toEqual([
      'Hi',
      '4',
      true,
      { Plan: 'pro' },
    ])
    expect(probe.hasAttribute('unknown')).toBe(false)
    const fromTag = element()
    applyOptions(fromTag, TABLE, { title: 'Hi', open: 'false', size: '7', data: '{}' })
    expect([fromTag.title, fromTag.open, fromTag.size, fromTag.data]).toEqual(['Hi', false, 7, undefined])
  })
})

describe('the element tables', () => {
  it('default the script sandbox next to the chat API, then the API, then the page', () => {
    // The default reads the element's own host properties.
    const chat = document.createElement('div')
    defineProperties(chat, CHAT_PROPERTIES)
    const sandbox = () => readProperty(chat, 'sandboxUrl', CHAT_PROPERTIES.sandboxUrl)
    expect(sandbox()).toBe(`${location.origin}/sandbox/v1/sandbox.html`)
    chat.setAttribute('api-host', 'https://api.example/base//')
    expect(sandbox()).toBe('https://api.example/base/sandbox/v1/sandbox.html')
    chat.setAttribute('chat-api-host', 'https://chat.example/')
    expect(sandbox()).toBe('https://chat.example/sandbox/v1/sandbox.html')
  })

  it('read a script timeout as a positive number of milliseconds, else the default', () => {
    const chat = document.createElement('div')
    const timeout = () => readProperty(chat, 'scriptTimeout', CHAT_PROPERTIES.scriptTimeout)
    for (const [value, expected] of [
      ['2500', 2500],
      ['', 10_000],
      ['soon', 10_000],
      ['-5', 10_000],
      ['0', 10_000],
      ['Infinity', 10_000],
    ] as const) {
      chat.setAttribute('script-timeout', value)
      expect(timeout(), value).toBe(expected)
    }
  })

  it('give bubble and popup every chat property (which they hand down), and each its own', () => {
    for (const table of [BUBBLE_PROPERTIES, POPUP_PROPERTIES]) {
      for (const name of Object.keys(CHAT_PROPERTIES)) expect(table).toHaveProperty(name)
    }
    expect(observedAttributes(POPUP_PROPERTIES)).not.toContain('placement')
    expect(observedAttributes(BUBBLE_PROPERTIES)).toContain('preview-message')
    const bubble = document.createElement('div')
    expect(readProperty(bubble, 'storageKey', BUBBLE_PROPERTIES.storageKey)).toBe('div')
    bubble.id = 'help'
    expect(readProperty(bubble, 'storageKey', BUBBLE_PROPERTIES.storageKey)).toBe('help')
  })
})
