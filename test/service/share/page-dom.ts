import { Window } from 'happy-dom'

/** Parses an HTML page the way a browser would, without running any of its scripts. */
export function parsePage(html: string): Document {
  const window = new Window()
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document
}

export const metaContent = (doc: Document, selector: string) => doc.querySelector(`meta[${selector}]`)?.getAttribute('content') ?? undefined

/** Every attribute on every element whose name starts with "on": an event handler. */
export function eventHandlerAttributes(doc: Document): string[] {
  return [...doc.querySelectorAll('*')].flatMap((element) =>
    [...element.attributes].filter((attr) => attr.name.toLowerCase().startsWith('on')).map((attr) => `${element.tagName}[${attr.name}]`),
  )
}

export const scriptSources = (doc: Document) => [...doc.querySelectorAll('script')].map((s) => s.getAttribute('src'))
