/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** A template tag that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value]
    for (const part of parts) {
      out += part instanceof Html ? part.value : escapeHtml(String(part ?? ''))
    }
    out += strings[i + 1] ?? ''
  })
  return new Html(out)
}
