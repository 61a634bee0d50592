/**
 * Renders the inline code spans of a CommonMark text (`like this`) as <code>, and the rest
 * as plain text. OpenAPI descriptions are CommonMark; this is all of it our docs use, and
 * it keeps the page free of a Markdown library and of raw HTML.
 */
export function InlineMarkdown({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1 ? <code key={i}>{part.slice(1, -1)}</code> : <span key={i}>{part}</span>,
      )}
    </>
  );
}
