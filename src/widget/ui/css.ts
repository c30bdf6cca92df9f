/**
 * Marks a stylesheet: the build minifies it where it is written (build/css-templates.ts); run
 * unbuilt (unit tests), it joins the template as it is.
 */
export const css = (strings: TemplateStringsArray, ...values: unknown[]): string =>
  strings.reduce((out, text, i) => `${out}${String(values[i - 1])}${text}`)

/** A themeable value: the public property, then the theme's, then the default. */
export const v = (name: string, fallback: string) => `var(--fc-${name}, var(--fct-${name}, ${fallback}))`

/** The default accent (buttons, the visitor's bubbles, the progress bar, focus). */
export const ACCENT = '#0042da'

/**
 * Constructable stylesheets, because a strict host CSP (`style-src 'self'`) blocks `<style>`
 * elements; browsers without them (pre-2023 Safari) get `<style>` elements instead.
 */
export const canAdoptSheets = (root: ShadowRoot): boolean =>
  'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype
