/**
 * A virtualised list: only the rows in view (and a few either side) are in the DOM, however many items there
 * are — 1,000+ tools or a 50,000-entry timeline stay fast. Rows have one fixed height; the list scrolls within
 * its own box and keeps following the end when it was already there (a live timeline).
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

const OVERSCAN = 8;

export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  /** The box's height in pixels. */
  height: number;
  label: string;
  keyOf: (item: T, index: number) => string | number;
  row: (item: T, index: number) => ComponentChild;
  /** Keep the end in view as items arrive, while the user is at the end. */
  follow?: boolean;
  class?: string;
}): ComponentChild {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const atEnd = useRef(true);
  const total = props.items.length * props.rowHeight;
  useLayoutEffect(() => {
    const element = box.current;
    if (props.follow && atEnd.current && element !== null) {
      element.scrollTop = Math.max(0, total - props.height);
      setTop(element.scrollTop);
    }
  }, [props.items.length]);
  useEffect(() => {
    // A shorter list (a search) may leave the box scrolled past its end.
    if (box.current !== null && top > total) box.current.scrollTop = 0;
  }, [total]);
  const first = Math.max(0, Math.floor(top / props.rowHeight) - OVERSCAN);
  const last = Math.min(props.items.length, Math.ceil((top + props.height) / props.rowHeight) + OVERSCAN);
  const rows: ComponentChild[] = [];
  for (let index = first; index < last; index++) {
    const item = props.items[index]!;
    rows.push(
      h(
        'li',
        {
          key: props.keyOf(item, index),
          // Set through the CSSOM (the CSP allows no inline style attributes).
          style: {
            position: 'absolute',
            top: `${index * props.rowHeight}px`,
            height: `${props.rowHeight}px`,
            left: 0,
            right: 0,
          },
          'aria-setsize': props.items.length,
          'aria-posinset': index + 1,
        },
        props.row(item, index),
      ),
    );
  }
  return h(
    'div',
    {
      ref: box,
      class: `virtual ${props.class ?? ''}`,
      style: {
        height: `${Math.min(props.height, Math.max(total, props.rowHeight))}px`,
        overflow: 'auto',
        position: 'relative',
      },
      onScroll: (event: Event) => {
        const element = event.currentTarget as HTMLDivElement;
        atEnd.current = element.scrollTop + element.clientHeight >= element.scrollHeight - props.rowHeight;
        setTop(element.scrollTop);
      },
    },
    h(
      'ul',
      {
        'aria-label': props.label,
        style: { height: `${total}px`, position: 'relative', margin: 0, padding: 0, listStyle: 'none' },
      },
      rows,
    ),
  );
}
