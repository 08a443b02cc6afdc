// How much of the history one read brings: shared by the api wrappers and
// the stores that ask for pages (and by their tests, which mock the api).

/** How many messages a conversation opens with, and a page of older (newer) ones holds. */
export const MESSAGE_PAGE = 100;

/** How many conversations a page of the list (or of a search) holds. */
export const CONVERSATION_PAGE = 50;
