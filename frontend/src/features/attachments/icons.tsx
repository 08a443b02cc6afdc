/** The paperclip of the Attach files button. */
export function PaperclipIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <path
        d="M14.5 9.2l-5.6 5.6a3.2 3.2 0 01-4.5-4.5l6.1-6.1a2.1 2.1 0 013 3l-6 6a1.05 1.05 0 01-1.5-1.5l5.5-5.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A text file's icon: a page with lines. */
export function FileIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
      <path d="M5 2.5h6.5L15 6v11.5H5z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
      <path d="M11.5 2.5V6H15M7.5 10h5M7.5 12.5h5M7.5 15h3" fill="none" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}
