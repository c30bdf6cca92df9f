/*
 * The share page's own script (served as /share/v1/share.js, deferred, before the widget bundle).
 * It runs once the document is parsed and before <flow-chat> is upgraded, so the prefilled
 * variables it sets are there when the widget starts its chat.
 *
 * - URL query parameters become prefilled variables: `?Name=Ada` fills the variable "Name".
 *   A name given twice keeps its first value; empty names are ignored. Values stay strings.
 * - `data-hide-query-params`: the parameters are then removed from the address bar (the
 *   fragment and history state are kept), so a visitor who copies the link does not pass on
 *   what was prefilled for them.
 */
;(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: a classic script, not a module: strict mode is not implied
  'use strict'

  const settings = document.currentScript?.dataset || {}

  const url = new URL(window.location.href)
  const entries = []
  const seen = new Set()
  for (const [name, value] of url.searchParams) {
    if (name === '' || seen.has(name)) continue
    seen.add(name)
    entries.push([name, value])
  }

  const chat = document.querySelector('flow-chat')
  if (chat && entries.length > 0) {
    // fromEntries defines own properties, so even "__proto__" is just a variable name here.
    chat.prefilledVariables = Object.fromEntries(entries)
    // Should the widget already be running (the bundle loaded first), start over with them.
    const defined = window.customElements?.get('flow-chat')
    if (defined && chat instanceof defined && typeof chat.reset === 'function') chat.reset()
  }

  if (settings.hideQueryParams !== undefined && url.search !== '') {
    url.search = ''
    window.history.replaceState(window.history.state, '', url.pathname + url.hash)
  }
})()
