// Counts what the Markdown parser is given: a test replaces react-markdown
// with countingReactMarkdown (vi.mock) and reads `parsed`.
import type { ComponentProps } from 'react';

/** Every text the Markdown parser was given, in order. */
export const parsed: string[] = [];

/** react-markdown as it is, but recording each text it parses in `parsed`. */
export async function countingReactMarkdown(importOriginal: () => Promise<typeof import('react-markdown')>) {
  const actual = await importOriginal();
  const Real = actual.default;
  return {
    ...actual,
    default: (props: ComponentProps<typeof Real>) => {
      parsed.push(String(props.children));
      return <Real {...props} />;
    },
  };
}
