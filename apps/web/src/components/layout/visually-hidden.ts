/**
 * Styles that keep an element out of sight but in the accessibility tree: read by screen
 * readers, and out of the page's layout (a flex container's gap included).
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
