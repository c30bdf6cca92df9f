import type { ComponentChildren, VNode } from 'preact'
import { isRichElement, isRichLeaf, MAX_RICH_TEXT_DEPTH, type RichLeaf } from '../../protocol/rich-text'
import { safeUrl } from './url'

/**
 * Renders a richText tree as Preact elements. Text only ever becomes text nodes, element types map
 * to a fixed set of tags, and links keep only allowed schemes, so no field of the tree can become
 * markup, an attribute of our choosing, or script.
 */
export function renderRichText(nodes: readonly unknown[]): ComponentChildren {
  return renderNodes(nodes, 0)
}

function renderNodes(nodes: readonly unknown[], depth: number): ComponentChildren[] {
  if (depth > MAX_RICH_TEXT_DEPTH) return []
  return nodes.map((node, index) => renderNode(node, index, depth))
}

function renderNode(node: unknown, key: number, depth: number): ComponentChildren {
  if (isRichLeaf(node)) return renderLeaf(node, key)
  if (!isRichElement(node)) return null
  const children = renderNodes(node.children, depth + 1)
  switch (node.type) {
    case 'p':
      return <p key={key}>{children}</p>
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      // Headings inside a chat bubble would break the host page's outline: styled text instead.
      return (
        <p key={key} class={`rt-${node.type}`}>
          {children}
        </p>
      )
    case 'blockquote':
      return <blockquote key={key}>{children}</blockquote>
    case 'ol':
      return <ol key={key}>{children}</ol>
    case 'ul':
      return <ul key={key}>{children}</ul>
    case 'li':
      return <li key={key}>{children}</li>
    case 'a':
      return renderLink(node.url, children, key)
    default:
      // `lic`, variables and types a newer builder may add: keep their text, drop the wrapper.
      return <span key={key}>{children}</span>
  }
}

function renderLink(url: unknown, children: ComponentChildren, key: number): VNode {
  const href = safeUrl(url)
  if (!href) return <span key={key}>{children}</span>
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}

function renderLeaf(leaf: RichLeaf, key: number): ComponentChildren {
  let out: ComponentChildren = leaf.text
  if (leaf.code === true) out = <code>{out}</code>
  if (leaf.bold === true) out = <strong>{out}</strong>
  if (leaf.italic === true) out = <em>{out}</em>
  if (leaf.underline === true) out = <u>{out}</u>
  if (leaf.strikethrough === true) out = <s>{out}</s>
  return typeof out === 'string' ? out : <span key={key}>{out}</span>
}
