/** A conversation's title as shown: "New conversation" until it has one. */
export function displayTitle(title: string | undefined): string {
  return title && title.trim() !== '' ? title : 'New conversation';
}
