import type { Nodes, Text } from 'hast'

/**
 * Turns HTML written inside a message into literal text. Without this, the sanitizer would
 * silently delete it ("use the <div> tag" would read "use the  tag"); showing it verbatim
 * matches what the model receives and can never inject markup.
 */
export function rawHtmlAsText() {
  return (tree: Nodes): void => convert(tree)
}

function convert(node: Nodes): void {
  if (!('children' in node)) return
  node.children.forEach((child, index) => {
    if (child.type === 'raw') {
      const text: Text = { type: 'text', value: child.value }
      node.children[index] = text
    } else {
      convert(child)
    }
  })
}
