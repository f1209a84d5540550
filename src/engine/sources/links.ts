import { homePage, type SportsbookKey } from '#domain/sportsbooks.ts';

// The simulator's bet links (decision 162): the book's real home page, desktop and mobile alike. A simulated price has
// no event at the book, so a deep link shaped as the book's (an event or selection id) would open an error page or,
// worse, another game's bet slip; the page labels the data "Demo data" and the button takes the visitor to the book.
// Links shaped as each book's real deep links are what real sources send (docs/product.md §11); the replayed fixtures
// of the browser tests carry those.

export function simulatedLinks(book: SportsbookKey): { desktop: string; mobile: string } {
  const link = homePage(book);
  return { desktop: link, mobile: link };
}
